//! The global allocator, mimalloc, and when it gives freed memory back to the system.
//!
//! By default mimalloc keeps freed pages for a second before it returns them. An index
//! run frees large buffers all the time (parse trees, a file's chunks and vectors,
//! tantivy's segments), so its resident memory sat well above what it was using.
//! [`tune`] asks for a purge after 100 ms: 315 → 288 MB at peak on the cargo registry,
//! about 10 MB less on the stdlib, speed unchanged within the benchmark's noise.
//! (Committing arena memory lazily would save more, but the option only applies to
//! arenas reserved after it is set, and the first is reserved before `main`.)
//!
//! It also turns transparent huge pages off for the process. mimalloc asks for them on
//! its arenas, and where the system grants them on request (`madvise`, the usual
//! setting) every first touch of a 2 MiB region has the kernel zero all of it, again
//! after each purge: a one-file re-index of the cargo registry spent a third of its time
//! there (`perf`: `clear_page_erms` under `do_huge_pmd_anonymous_page`). Without them:
//! 0.77 → 0.68 s median and steadier, and about 20 MB less at peak on a cold index, at
//! the same speed. The process-wide switch (`PR_SET_THP_DISABLE`) also covers the arena
//! reserved before `main`.
#![allow(unsafe_code)]

use std::ffi::{c_int, c_long};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

// Positions in `mi_option_e` of the mimalloc (v3) that libmimalloc-sys 0.1.49 builds,
// which names only older options; the test below checks the table has not moved.
const PURGE_DELAY: c_int = 15;
const ALLOW_THP: c_int = 43;

/// `PR_SET_THP_DISABLE` of `<linux/prctl.h>`.
#[cfg(target_os = "linux")]
const PR_SET_THP_DISABLE: c_int = 41;

unsafe extern "C" {
    fn mi_option_set(option: c_int, value: c_long);
    #[cfg(target_os = "linux")]
    fn prctl(option: c_int, ...) -> c_int;
    #[cfg(test)]
    fn mi_option_get(option: c_int) -> c_long;
}

/// Sets the allocator's purge delay and turns transparent huge pages off; called first
/// thing in the process.
pub fn tune() {
    // SAFETY: `mi_option_set` stores a value in mimalloc's option table, which it reads
    // atomically; any value is valid for these options.
    unsafe {
        mi_option_set(PURGE_DELAY, 100);
        mi_option_set(ALLOW_THP, 0);
    }
    // SAFETY: PR_SET_THP_DISABLE takes one integer argument (the unused ones must be 0)
    // and only sets a flag of this process; a failure (an old kernel) changes nothing.
    #[cfg(target_os = "linux")]
    unsafe {
        prctl(
            PR_SET_THP_DISABLE,
            1 as std::ffi::c_ulong,
            0 as std::ffi::c_ulong,
            0 as std::ffi::c_ulong,
            0 as std::ffi::c_ulong,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_option_numbers_are_those_of_the_linked_mimalloc() {
        // Options nobody sets, with distinctive defaults, around the ones we set:
        // os_tag (100), max_errors (32), max_warnings (32) after purge_delay;
        // page_full_retain (2), page_max_candidates (4), page_max_reclaim (-1) and
        // page_cross_thread_max_reclaim (32) before allow_thp.
        let around = [18, 19, 20, 36, 37, 41, 42];
        // SAFETY: reading an option has no precondition.
        let got = around.map(|o| unsafe { mi_option_get(o) });
        assert_eq!(
            got,
            [100, 32, 32, 2, 4, -1, 32],
            "mimalloc's option table changed"
        );
        tune();
        // SAFETY: as above.
        assert_eq!(unsafe { mi_option_get(PURGE_DELAY) }, 100);
        // SAFETY: as above.
        assert_eq!(unsafe { mi_option_get(ALLOW_THP) }, 0);
    }
}
