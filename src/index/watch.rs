//! What changed under the root, as the kernel tells it, for a long-running reader
//! (`llmc mcp`): a [`FreshnessCheck`](super::FreshnessCheck) stats every indexed file, so
//! the reader asks a [`Watch`] first and checks only when something may have changed.
//!
//! On Linux, inotify watches (not recursive) the root, every directory of the stored
//! files and git's HEAD files: exactly what the check looks at. The kernel queues an
//! event before the write that caused it returns, so [`Watch::changed`], which reads the
//! queue without blocking, sees every change made before it was called. Anything
//! uncertain (no inotify, a watch that could not be added, a full queue, a watched
//! directory removed) answers "changed", and the reader checks as it would without a
//! watch. Elsewhere there is no watch and every read checks.

use std::path::Path;

use super::Known;

/// The names in git's directory (and in its `logs/`) that the freshness check reads.
const GIT_NAMES: [&str; 2] = ["HEAD", "packed-refs"];

/// Changes since the last [`Watch::changed`], for the directories of one [`Known`].
pub struct Watch {
    #[cfg(target_os = "linux")]
    inner: Option<linux::Inner>,
}

impl Watch {
    /// A watch of `root` and its git HEAD files, following no stored directory yet (the
    /// first [`Watch::changed`] answers "changed").
    pub fn new(root: &Path) -> Watch {
        #[cfg(target_os = "linux")]
        {
            Watch {
                inner: linux::Inner::new(root),
            }
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = root;
            Watch {}
        }
    }

    /// Watches the directories of `known` (and no others), after an index run changed
    /// them. A directory that cannot be watched turns the watch off: every read checks.
    pub fn follow(&mut self, known: &Known) {
        #[cfg(target_os = "linux")]
        if let Some(inner) = &mut self.inner
            && !inner.follow(known)
        {
            self.inner = None;
        }
        #[cfg(not(target_os = "linux"))]
        let _ = known;
    }

    /// Whether anything the freshness check looks at may have changed since the last
    /// call (true when the watch cannot tell). Reads the kernel's queue, never blocks.
    pub fn changed(&mut self) -> bool {
        #[cfg(target_os = "linux")]
        if let Some(inner) = &mut self.inner {
            return inner.changed();
        }
        true
    }

    /// Whether the kernel watches for this reader (false: every read checks).
    pub fn active(&self) -> bool {
        #[cfg(target_os = "linux")]
        {
            self.inner.is_some()
        }
        #[cfg(not(target_os = "linux"))]
        {
            false
        }
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use std::collections::HashMap;
    use std::io::ErrorKind;
    use std::path::{Path, PathBuf};

    use inotify::{EventMask, Inotify, WatchDescriptor, WatchMask};

    use super::{GIT_NAMES, Known};

    /// What a watched directory is to the freshness check.
    #[derive(Clone, Copy, PartialEq)]
    enum Role {
        /// A directory of stored files (or the root): every change counts.
        Files,
        /// The root: every change but `.llmc/` (llmc's own writes) counts.
        Root,
        /// git's directory or its `logs/`: only [`GIT_NAMES`] count.
        Git,
    }

    pub(super) struct Inner {
        inotify: Inotify,
        /// Watched directories of stored files.
        dirs: HashMap<PathBuf, WatchDescriptor>,
        roles: HashMap<WatchDescriptor, Role>,
        /// Set when an event was read that counts, or the watch cannot tell.
        changed: bool,
        buffer: Vec<u8>,
    }

    fn mask() -> WatchMask {
        WatchMask::MODIFY
            | WatchMask::ATTRIB
            | WatchMask::CLOSE_WRITE
            | WatchMask::CREATE
            | WatchMask::DELETE
            | WatchMask::MOVED_FROM
            | WatchMask::MOVED_TO
            | WatchMask::DELETE_SELF
            | WatchMask::MOVE_SELF
    }

    impl Inner {
        pub(super) fn new(root: &Path) -> Option<Inner> {
            let inotify = Inotify::init().ok()?;
            let mut inner = Inner {
                inotify,
                dirs: HashMap::new(),
                roles: HashMap::new(),
                changed: true,
                buffer: vec![0; 16 * 1024],
            };
            let root_wd = inner.inotify.watches().add(root, mask()).ok()?;
            inner.roles.insert(root_wd, Role::Root);
            let git = root.join(".git");
            if git.is_dir() {
                for dir in [git.clone(), git.join("logs")] {
                    if dir.is_dir() {
                        let wd = inner.inotify.watches().add(&dir, mask()).ok()?;
                        inner.roles.insert(wd, Role::Git);
                    }
                }
            }
            Some(inner)
        }

        /// Watches exactly the directories of `known`; false when one cannot be watched.
        pub(super) fn follow(&mut self, known: &Known) -> bool {
            let wanted: std::collections::HashSet<&PathBuf> = known.dirs.iter().collect();
            let gone: Vec<PathBuf> = self
                .dirs
                .keys()
                .filter(|d| !wanted.contains(d))
                .cloned()
                .collect();
            for d in gone {
                if let Some(wd) = self.dirs.remove(&d) {
                    // The directory may be gone already, and its watch with it.
                    let _ = self.inotify.watches().remove(wd.clone());
                    if self.roles.get(&wd) == Some(&Role::Files) {
                        self.roles.remove(&wd);
                    }
                }
            }
            for d in &known.dirs {
                if self.dirs.contains_key(d) {
                    continue;
                }
                match self.inotify.watches().add(d, mask()) {
                    Ok(wd) => {
                        // The root's own watch keeps its role (the same descriptor).
                        self.roles.entry(wd.clone()).or_insert(Role::Files);
                        self.dirs.insert(d.clone(), wd);
                    }
                    // A directory removed since the run: the next check sees it.
                    Err(e) if e.kind() == ErrorKind::NotFound => self.changed = true,
                    Err(_) => return false,
                }
            }
            true
        }

        pub(super) fn changed(&mut self) -> bool {
            loop {
                match self.inotify.read_events(&mut self.buffer) {
                    Ok(events) => {
                        for e in events {
                            if e.mask.contains(EventMask::Q_OVERFLOW)
                                || e.mask.contains(EventMask::IGNORED)
                            {
                                self.changed = true;
                                continue;
                            }
                            let name = e.name.and_then(|n| n.to_str());
                            let counts = match self.roles.get(&e.wd) {
                                Some(Role::Files) => true,
                                Some(Role::Root) => name != Some(".llmc"),
                                Some(Role::Git) => name.is_some_and(|n| GIT_NAMES.contains(&n)),
                                // A watch removed by `follow` whose events were queued.
                                None => false,
                            };
                            self.changed |= counts;
                        }
                    }
                    Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                    Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                    Err(_) => {
                        self.changed = true;
                        break;
                    }
                }
            }
            std::mem::take(&mut self.changed)
        }
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use crate::store::Store;

    fn known(root: &Path) -> Known {
        let store = Store::open_existing(root).expect("store");
        Known::read(root, &store, &crate::config::Config::default()).expect("known")
    }

    /// A small indexed repository with git: `a.py`, `pkg/b.py`.
    fn repo() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        std::fs::create_dir_all(root.join("pkg")).expect("mkdir");
        std::fs::write(root.join("a.py"), "def a():\n    return 1\n").expect("write");
        std::fs::write(root.join("pkg/b.py"), "def b():\n    return a()\n").expect("write");
        let git = |args: &[&str]| {
            let ok = std::process::Command::new("git")
                .args(args)
                .current_dir(root)
                .env("GIT_AUTHOR_NAME", "t")
                .env("GIT_AUTHOR_EMAIL", "t@example.com")
                .env("GIT_COMMITTER_NAME", "t")
                .env("GIT_COMMITTER_EMAIL", "t@example.com")
                .status()
                .expect("git runs")
                .success();
            assert!(ok, "git {args:?}");
        };
        git(&["init", "-q"]);
        git(&["add", "-A"]);
        git(&["commit", "-qm", "first"]);
        crate::index::run(
            root,
            &crate::config::IndexConfig::default(),
            &crate::index::IndexOptions::default(),
            &crate::progress::NoProgress,
        )
        .expect("index");
        dir
    }

    #[test]
    fn a_write_in_a_stored_directory_is_seen_before_the_next_read() {
        let dir = repo();
        let root = dir.path();
        let mut w = Watch::new(root);
        w.follow(&known(root));
        assert!(w.active());
        assert!(w.changed(), "the first read checks");
        assert!(!w.changed(), "nothing written since");
        std::fs::write(root.join("pkg/b.py"), "def b():\n    return 2\n").expect("write");
        // No wait: the kernel queued the event before the write returned.
        assert!(w.changed());
        assert!(!w.changed());
        std::fs::write(root.join("pkg/new.py"), "x = 1\n").expect("write");
        assert!(w.changed(), "a new file");
        std::fs::remove_file(root.join("a.py")).expect("rm");
        assert!(w.changed(), "a removed file");
    }

    #[test]
    fn llmc_and_git_bookkeeping_is_not_a_change_but_a_new_head_is() {
        let dir = repo();
        let root = dir.path();
        let mut w = Watch::new(root);
        w.follow(&known(root));
        assert!(w.changed());
        // llmc's own writes, and git's index (`git status` rewrites it).
        std::fs::write(root.join(".llmc/scratch"), "x").expect("write");
        std::fs::write(root.join(".git/index.lock"), "x").expect("write");
        std::fs::remove_file(root.join(".git/index.lock")).expect("rm");
        assert!(!w.changed());
        // A commit moves HEAD's log; a checkout rewrites HEAD.
        let head = std::fs::read(root.join(".git/HEAD")).expect("HEAD");
        std::fs::write(root.join(".git/HEAD"), head).expect("write");
        assert!(w.changed());
    }
}
