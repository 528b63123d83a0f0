//! [`KeptRows`]: the few rows of a report that the engine reads again once the report is
//! reduced to its figures, stored compactly, because a fleet holds one per report until every
//! report of a database is known.
//!
//! A report's figures are read at once from a [`View`] of all its rows, in the thread that
//! finishes the report. After that, only two things read rows again (see
//! [`crate::metrics::kept`] for which rows): the sum of several instance reports of one RAC
//! interval ([`View::sum`]), and a RAC global report's per-instance IO (`IOStat by Filetype`,
//! row `Total`). Those rows are kept here, per instance:
//! - each (section, statistic) as a `u32` id into one process-wide table of names ([`names`]):
//!   the kept statistics are a fixed vocabulary (a few dozen Instance Activity statistics and
//!   wait events, the histogram edges, the Host CPU rows), so the table stays a few hundred
//!   entries however many reports are read, and a report stores 4 bytes per name, not a string;
//! - which of the six numeric columns are known (one byte), and only the known values;
//! - the printed text, only for the cells that have one.
//!
//! So a kept cell costs 5 bytes plus 8 per known value: the 30 AWR reports of the fixtures and
//! the corpus keep 52 cells on average, 1.6 KB (at most 3.3 KB), where a [`View`] of the same
//! cells costs about 120 bytes of cells and two hashed strings each. [`KeptRows::view`] rebuilds
//! the [`View`] of an instance, the same lookup table [`View::of_rows`] gives, for the sums.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use super::awr::StatRow;
use super::view::{Cells, View};

/// The process-wide table of kept (section, statistic) names.
mod names {
    use super::*;

    #[derive(Default)]
    struct Table {
        ids: HashMap<&'static str, HashMap<Arc<str>, u32>>,
        names: Vec<(&'static str, Arc<str>)>,
    }

    fn table() -> &'static Mutex<Table> {
        static TABLE: OnceLock<Mutex<Table>> = OnceLock::new();
        TABLE.get_or_init(Mutex::default)
    }

    /// The id of (`section`, `statistic`), added to the table if new.
    ///
    /// # Panics
    /// When more than `u32::MAX` distinct names were kept (the vocabulary is a few hundred).
    pub(super) fn id(section: &'static str, statistic: &str) -> u32 {
        let mut t = table().lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(&i) = t.ids.get(section).and_then(|m| m.get(statistic)) {
            return i;
        }
        let i = u32::try_from(t.names.len()).expect("kept names fit in u32");
        let name: Arc<str> = Arc::from(statistic);
        t.names.push((section, name.clone()));
        t.ids.entry(section).or_default().insert(name, i);
        i
    }

    /// The (section, statistic) of each id in `ids`, in order.
    pub(super) fn of(ids: &[u32]) -> Vec<(&'static str, Arc<str>)> {
        let t = table().lock().unwrap_or_else(PoisonError::into_inner);
        ids.iter()
            .map(|&i| {
                let (s, n) = &t.names[i as usize];
                (*s, n.clone())
            })
            .collect()
    }

    /// The id of (`section`, `statistic`) if it was ever kept.
    pub(super) fn find(section: &str, statistic: &str) -> Option<u32> {
        let t = table().lock().unwrap_or_else(PoisonError::into_inner);
        t.ids.get(section)?.get(statistic).copied()
    }
}

/// The numeric columns of a kept cell, in the order of the `known` bits.
const COLUMNS: usize = 6;

fn columns(c: &Cells) -> [Option<f64>; COLUMNS] {
    [c.total, c.per_second, c.per_trans, c.value, c.lo, c.hi]
}

/// The kept rows of one instance (`*` = cluster-wide).
#[derive(Debug, Clone, Default)]
struct Instance {
    name: Box<str>,
    /// The cells' name ids, in the order of first appearance (the first row of a section and
    /// statistic wins, as in [`View::of_rows`]).
    ids: Vec<u32>,
    /// Bit `i` set: column `i` of [`columns`] is known; its value is next in `values`.
    known: Vec<u8>,
    /// The known values, cell after cell.
    values: Vec<f64>,
    /// `(cell index, printed text)` of the cells that have one.
    printed: Vec<(u32, Box<str>)>,
}

impl Instance {
    fn push(&mut self, id: u32, c: &Cells) {
        let index = self.ids.len();
        let mut bits = 0u8;
        for (i, v) in columns(c).into_iter().enumerate() {
            if let Some(v) = v {
                bits |= 1 << i;
                self.values.push(v);
            }
        }
        self.ids.push(id);
        self.known.push(bits);
        if let Some(p) = &c.printed {
            let index = u32::try_from(index).expect("a report keeps fewer than 2^32 cells");
            self.printed.push((index, p.as_str().into()));
        }
    }

    /// The cells, in order, with their value offsets resolved.
    fn cells(&self) -> impl Iterator<Item = (u32, Cells)> + '_ {
        let mut at = 0usize;
        let mut printed = self.printed.iter().peekable();
        self.ids
            .iter()
            .zip(&self.known)
            .enumerate()
            .map(move |(index, (&id, &bits))| {
                let mut col = [None; COLUMNS];
                for (i, slot) in col.iter_mut().enumerate() {
                    if bits & (1 << i) != 0 {
                        *slot = Some(self.values[at]);
                        at += 1;
                    }
                }
                let text = match printed.peek() {
                    Some((i, t)) if *i as usize == index => {
                        printed.next();
                        Some(t.to_string())
                    }
                    _ => None,
                };
                let [total, per_second, per_trans, value, lo, hi] = col;
                let cells = Cells {
                    total,
                    per_second,
                    per_trans,
                    value,
                    printed: text,
                    lo,
                    hi,
                };
                (id, cells)
            })
    }

    fn shrink(&mut self) {
        self.ids.shrink_to_fit();
        self.known.shrink_to_fit();
        self.values.shrink_to_fit();
        self.printed.shrink_to_fit();
    }
}

/// The rows of one report that the engine reads after the report is reduced, per instance
/// (see the module docs): a few dozen cells, where the report has about 1,100.
#[derive(Debug, Clone, Default)]
pub struct KeptRows {
    /// In order of first appearance.
    instances: Vec<Instance>,
}

impl KeptRows {
    /// The rows of `rows` for which `keep(instance, section, statistic)` holds, grouped by
    /// instance; of several rows of one instance, section and statistic the first is kept.
    pub fn of(rows: &[StatRow], keep: impl Fn(&str, &str, &str) -> bool) -> KeptRows {
        let mut instances: Vec<Instance> = Vec::new();
        let mut seen: Vec<std::collections::HashSet<u32>> = Vec::new();
        for r in rows {
            if !keep(&r.instance, r.section, &r.statistic) {
                continue;
            }
            let slot = match instances.iter().position(|i| *i.name == *r.instance) {
                Some(s) => s,
                None => {
                    instances.push(Instance {
                        name: r.instance.as_str().into(),
                        ..Instance::default()
                    });
                    seen.push(Default::default());
                    instances.len() - 1
                }
            };
            let id = names::id(r.section, &r.statistic);
            if !seen[slot].insert(id) {
                continue;
            }
            let cells = Cells {
                total: r.total,
                per_second: r.per_second,
                per_trans: r.per_trans,
                value: r.value,
                printed: r.printed.clone(),
                lo: r.lo,
                hi: r.hi,
            };
            instances[slot].push(id, &cells);
        }
        for i in &mut instances {
            i.shrink();
        }
        instances.shrink_to_fit();
        KeptRows { instances }
    }

    fn instance(&self, instance: &str) -> Option<&Instance> {
        self.instances.iter().find(|i| *i.name == *instance)
    }

    /// The kept rows of `instance` (`*` for cluster-wide) as a lookup table, if it kept any:
    /// the table [`View::of_rows`] gives on the report's rows, restricted to the kept ones.
    pub fn view(&self, instance: &str) -> Option<View> {
        let inst = self.instance(instance)?;
        let names = names::of(&inst.ids);
        let cells = inst.cells().zip(names).map(|((_, c), (s, n))| (s, n, c));
        Some(View::of_cells(cells))
    }

    /// The kept cell `statistic` of `section` for `instance`, without building a view.
    pub fn get(&self, instance: &str, section: &str, statistic: &str) -> Option<Cells> {
        let id = names::find(section, statistic)?;
        self.instance(instance)?
            .cells()
            .find(|(i, _)| *i == id)
            .map(|(_, c)| c)
    }

    /// How many cells are kept, over the instances.
    pub fn len(&self) -> usize {
        self.instances.iter().map(|i| i.ids.len()).sum()
    }

    /// Whether nothing is kept.
    pub fn is_empty(&self) -> bool {
        self.instances.is_empty()
    }

    /// The rows as bytes, for a run that keeps them on disk ([`crate::spill`]): read back by
    /// [`KeptRows::from_bytes`] in the same process (the name ids are this process's).
    ///
    /// Layout, little-endian: the instance count (`u32`), then per instance its name (`u32`
    /// length and UTF-8), its cell count `n` (`u32`), `n` ids (`u32`), `n` known-column bytes,
    /// its value count and values (`u32`, then `f64` bits), its printed count and per printed
    /// text the cell index, the length and the UTF-8.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(self.heap_bytes());
        self.write_bytes(&mut b);
        b
    }

    /// [`KeptRows::to_bytes`], appended to `b`.
    pub fn write_bytes(&self, b: &mut Vec<u8>) {
        let n = |b: &mut Vec<u8>, x: usize| {
            b.extend_from_slice(&u32::try_from(x).unwrap_or(u32::MAX).to_le_bytes())
        };
        n(b, self.instances.len());
        for i in &self.instances {
            n(b, i.name.len());
            b.extend_from_slice(i.name.as_bytes());
            n(b, i.ids.len());
            for id in &i.ids {
                b.extend_from_slice(&id.to_le_bytes());
            }
            b.extend_from_slice(&i.known);
            n(b, i.values.len());
            for v in &i.values {
                b.extend_from_slice(&v.to_bits().to_le_bytes());
            }
            n(b, i.printed.len());
            for (at, t) in &i.printed {
                b.extend_from_slice(&at.to_le_bytes());
                n(b, t.len());
                b.extend_from_slice(t.as_bytes());
            }
        }
    }

    /// The rows [`KeptRows::to_bytes`] wrote; `None` for bytes it did not write (cut short,
    /// or text that is not UTF-8).
    pub fn from_bytes(mut b: &[u8]) -> Option<KeptRows> {
        fn take<'a>(b: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
            let (head, rest) = (b.get(..n)?, b.get(n..)?);
            *b = rest;
            Some(head)
        }
        fn u32_of(b: &mut &[u8]) -> Option<u32> {
            Some(u32::from_le_bytes(take(b, 4)?.try_into().ok()?))
        }
        fn len_of(b: &mut &[u8]) -> Option<usize> {
            u32_of(b).map(|x| x as usize)
        }
        fn text(b: &mut &[u8]) -> Option<Box<str>> {
            let n = len_of(b)?;
            Some(std::str::from_utf8(take(b, n)?).ok()?.into())
        }
        let count = len_of(&mut b)?;
        let mut instances = Vec::with_capacity(count.min(b.len()));
        for _ in 0..count {
            let name = text(&mut b)?;
            let cells = len_of(&mut b)?;
            let ids = (0..cells)
                .map(|_| u32_of(&mut b))
                .collect::<Option<Vec<u32>>>()?;
            let known = take(&mut b, cells)?.to_vec();
            let values = (0..len_of(&mut b)?)
                .map(|_| {
                    Some(f64::from_bits(u64::from_le_bytes(
                        take(&mut b, 8)?.try_into().ok()?,
                    )))
                })
                .collect::<Option<Vec<f64>>>()?;
            let printed = (0..len_of(&mut b)?)
                .map(|_| Some((u32_of(&mut b)?, text(&mut b)?)))
                .collect::<Option<Vec<_>>>()?;
            let known_values: u32 = known.iter().map(|k| k.count_ones()).sum();
            if known_values as usize != values.len() {
                return None;
            }
            instances.push(Instance {
                name,
                ids,
                known,
                values,
                printed,
            });
        }
        b.is_empty().then_some(KeptRows { instances })
    }

    /// The heap bytes held, for the memory test and `docs/performance.md` (the names table is
    /// shared and not counted).
    pub fn heap_bytes(&self) -> usize {
        self.instances.capacity() * std::mem::size_of::<Instance>()
            + self
                .instances
                .iter()
                .map(|i| {
                    i.name.len()
                        + i.ids.capacity() * 4
                        + i.known.capacity()
                        + i.values.capacity() * 8
                        + i.printed.capacity() * std::mem::size_of::<(u32, Box<str>)>()
                        + i.printed.iter().map(|(_, t)| t.len()).sum::<usize>()
                })
                .sum::<usize>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::section;

    fn row(instance: &str, sec: &'static str, stat: &str, total: Option<f64>) -> StatRow {
        StatRow {
            instance: instance.into(),
            instance_number: None,
            section: sec,
            statistic: stat.into(),
            total,
            per_second: total.map(|t| t / 3600.0),
            per_trans: None,
            value: None,
            unit: "",
            printed: (stat == "redo writes").then(|| "1.0".to_string()),
            lo: None,
            hi: None,
        }
    }

    /// The compact rows give back exactly the view of the same rows, first row winning.
    #[test]
    fn view_is_the_view_of_the_kept_rows() {
        let rows = vec![
            row("a", section::ACTIVITY, "redo writes", Some(3600.0)),
            row("a", section::ACTIVITY, "redo size", None),
            row("b", section::ACTIVITY, "redo writes", Some(7200.0)),
            row("a", section::ACTIVITY, "redo writes", Some(1.0)),
            row("a", section::LOAD_PROFILE, "not kept", Some(5.0)),
        ];
        let keep = |_: &str, s: &str, _: &str| s == section::ACTIVITY;
        let k = KeptRows::of(&rows, keep);
        assert_eq!(k.len(), 3);
        for inst in ["a", "b"] {
            let want = View::of_rows(
                &rows
                    .iter()
                    .filter(|r| r.section == section::ACTIVITY)
                    .cloned()
                    .collect::<Vec<_>>(),
                inst,
            );
            let got = k.view(inst).unwrap();
            assert_eq!(
                format!("{:?}", got.sorted()),
                format!("{:?}", want.sorted())
            );
        }
        let w = k.get("a", section::ACTIVITY, "redo writes").unwrap();
        assert_eq!((w.total, w.per_second), (Some(3600.0), Some(1.0)));
        assert_eq!(w.printed.as_deref(), Some("1.0"));
        assert!(k
            .get("a", section::ACTIVITY, "redo size")
            .unwrap()
            .total
            .is_none());
        assert!(k.view("c").is_none());
        assert!(k.get("a", section::LOAD_PROFILE, "not kept").is_none());
    }

    /// The bytes give back the same rows; bytes cut short or changed in a count are refused.
    #[test]
    fn bytes_give_back_the_rows() {
        let rows = vec![
            row("a", section::ACTIVITY, "redo writes", Some(3600.0)),
            row("a", section::ACTIVITY, "redo size", None),
            row("b", section::ACTIVITY, "redo writes", Some(7200.0)),
        ];
        let k = KeptRows::of(&rows, |_, _, _| true);
        let b = k.to_bytes();
        let back = KeptRows::from_bytes(&b).unwrap();
        for inst in ["a", "b"] {
            assert_eq!(
                format!("{:?}", back.view(inst).unwrap().sorted()),
                format!("{:?}", k.view(inst).unwrap().sorted())
            );
        }
        assert_eq!(back.len(), 3);
        assert!(KeptRows::from_bytes(&b[..b.len() - 1]).is_none());
        let mut longer = b.clone();
        longer.push(0);
        assert!(KeptRows::from_bytes(&longer).is_none());
        let empty = KeptRows::default();
        assert!(KeptRows::from_bytes(&empty.to_bytes()).unwrap().is_empty());
    }
}
