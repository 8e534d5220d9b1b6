//! The global allocator, mimalloc, with transparent huge pages off for the process.
//!
//! mimalloc asks for huge pages on its arenas, and where the system grants them on
//! request (`madvise`, the usual setting) every first touch of a 2 MiB region has the
//! kernel zero all of it, again after each purge: a one-file re-index of the cargo
//! registry spent a third of its time there (`perf`: `clear_page_erms` under
//! `do_huge_pmd_anonymous_page`). Without them: 0.77 → 0.68 s median and steadier, and
//! about 20 MB less at peak on a cold index, at the same speed. The process-wide switch
//! (`PR_SET_THP_DISABLE`) also covers the arena reserved before `main`; mimalloc's
//! `allow_thp` stops it asking for more.
//!
//! Freed memory goes back to the system after mimalloc's default delay (1 s). A 100 ms
//! delay was tried: 20 MB less at peak on a cold stdlib index, but 4 % slower (median of
//! 4 alternating runs, 5.44 vs 5.2 s) with a third more system time, every purge being
//! a TLB shootdown on the other core.
#![allow(unsafe_code)]

use std::ffi::{c_int, c_long};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

// The position of `allow_thp` in `mi_option_e` of the mimalloc (v3) that
// libmimalloc-sys 0.1.49 builds, which names only older options; the test below checks
// the table has not moved.
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

/// Turns transparent huge pages off; called first thing in the process.
pub fn tune() {
    // SAFETY: `mi_option_set` stores a value in mimalloc's option table, which it reads
    // atomically; any value is valid for this option.
    unsafe { mi_option_set(ALLOW_THP, 0) }
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
        // Options nobody sets, with distinctive defaults: purge_delay (1000), os_tag
        // (100), max_errors (32), max_warnings (32), page_full_retain (2),
        // page_max_candidates (4), page_max_reclaim (-1) and
        // page_cross_thread_max_reclaim (32), the one before allow_thp.
        let around = [15, 18, 19, 20, 36, 37, 41, 42];
        // SAFETY: reading an option has no precondition.
        let got = around.map(|o| unsafe { mi_option_get(o) });
        assert_eq!(
            got,
            [1000, 100, 32, 32, 2, 4, -1, 32],
            "mimalloc's option table changed"
        );
        tune();
        // SAFETY: as above.
        assert_eq!(unsafe { mi_option_get(ALLOW_THP) }, 0);
    }
}
