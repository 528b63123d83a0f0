//! One shared copy of each figure provenance text ([`super::Figure::from`]).
//!
//! A fleet run holds one [`super::IntervalFigures`] per report, each with about 35 figures, and
//! their `from` texts (`'physical read total IO requests' per Second`, formula descriptions) are
//! the same few dozen strings in every report. [`shared`] gives every figure the same
//! reference-counted copy of its text, so a report holds a pointer per figure, not a string.
//! The table is capped ([`CAP`]): past it, texts are allocated per figure as before, so a source
//! whose texts vary (they do not today) costs memory, never correctness.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// The most distinct texts shared (the figures use fewer than 100).
pub const CAP: usize = 4096;

/// The shared copy of `text`.
pub fn shared(text: &str) -> Arc<str> {
    static TABLE: OnceLock<Mutex<HashSet<Arc<str>>>> = OnceLock::new();
    let mut t = TABLE
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some(s) = t.get(text) {
        return s.clone();
    }
    let s: Arc<str> = Arc::from(text);
    if t.len() < CAP {
        t.insert(s.clone());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_copy_per_text() {
        let a = shared("'redo writes' per Second");
        let b = shared(&String::from("'redo writes' per Second"));
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(&*a, "'redo writes' per Second");
        assert!(!Arc::ptr_eq(&a, &shared("'redo size' per Second")));
    }
}
