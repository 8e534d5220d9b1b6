//! What the benchmarks share: the trees they run on, whole-process timing, medians.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// This machine's Python standard library.
pub fn stdlib() -> PathBuf {
    let out = Command::new("python3")
        .args([
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['stdlib'])",
        ])
        .output()
        .expect("python3 runs");
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}

/// A fresh copy of `src` under the temp dir (without `site-packages`), named for `bench`.
pub fn copy_tree(src: &Path, bench: &str) -> PathBuf {
    let dst = std::env::temp_dir().join(format!(
        "llmc-{bench}-bench-{}",
        src.file_name().and_then(|n| n.to_str()).unwrap_or("tree")
    ));
    let _ = std::fs::remove_dir_all(&dst);
    let status = Command::new("cp")
        .arg("-r")
        .arg(src)
        .arg(&dst)
        .status()
        .expect("cp runs");
    assert!(status.success(), "copying {}", src.display());
    let _ = std::fs::remove_dir_all(dst.join("site-packages"));
    dst
}

/// The wall time of a whole process (its output discarded).
pub fn time(cmd: &mut Command) -> Duration {
    let t = Instant::now();
    let _ = cmd.output().expect("command runs");
    t.elapsed()
}

pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

pub fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}
