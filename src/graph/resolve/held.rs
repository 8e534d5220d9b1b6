//! A cold run's call sites, held back from the store until the graph resolves them: the
//! run writes each once, with its callee, instead of writing it, reading it back and
//! updating it (`IndexOptions::store_calls_first` takes that other way; both leave the
//! same rows).

use anyhow::Result;
use rayon::prelude::*;
use rusqlite::Connection;

use super::{CALL_BATCH, CallRow, Graph, Outcome, ResolveStats};
use crate::model::{CallKind, CallSite, CallTarget, Receiver};

/// One file's call sites, held back from the store until they are resolved, packed in
/// one buffer, each field as the store writes it: 40 bytes a call on the stdlib, where
/// its `CallSite` with its strings takes about 240 (a cold index of a large repository
/// holds them by the hundred thousand).
#[derive(Debug, Clone)]
pub struct HeldCalls {
    file_id: i64,
    /// The ids of the file's symbols, in its symbol list's order (what
    /// [`CallSite::caller`] indexes).
    symbol_ids: Vec<i64>,
    count: usize,
    packed: Vec<u8>,
}

impl HeldCalls {
    pub fn new(file_id: i64, symbol_ids: Vec<i64>, calls: &[CallSite]) -> HeldCalls {
        let mut packed = Vec::with_capacity(calls.len() * 32);
        let p = &mut packed;
        for c in calls {
            pack_num(p, c.caller.map(|i| i as u64));
            pack_num(p, Some(u64::from(c.line)));
            pack_num(p, Some(u64::from(c.col)));
            pack_num(p, c.args.map(u64::from));
            pack_text(p, Some(c.kind.as_str()));
            pack_text(p, Some(c.usage.as_str()));
            pack_text(p, Some(&c.name));
            pack_text(p, c.qualifier.as_deref());
            pack_text(p, c.receiver_type.as_ref().map(Receiver::encode).as_deref());
            pack_text(p, c.arg_types.as_deref());
        }
        packed.shrink_to_fit();
        HeldCalls {
            file_id,
            symbol_ids,
            count: calls.len(),
            packed,
        }
    }

    /// The memory this holds.
    pub fn bytes(&self) -> usize {
        self.packed.capacity() + self.symbol_ids.capacity() * 8
    }

    /// The call sites, as they read back from the store.
    fn calls(&self) -> Result<Vec<CallSite>> {
        let mut r = Unpack {
            packed: &self.packed,
            at: 0,
        };
        (0..self.count)
            .map(|_| r.call())
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| anyhow::anyhow!("the held calls of file {} are cut short", self.file_id))
    }
}

/// Reads [`HeldCalls::packed`] from its start.
struct Unpack<'a> {
    packed: &'a [u8],
    at: usize,
}

impl Unpack<'_> {
    /// A number [`pack_num`] wrote: `None` when the buffer ends first.
    fn num(&mut self) -> Option<Option<u64>> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let b = *self.packed.get(self.at)?;
            self.at += 1;
            n |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Some(n.checked_sub(1));
            }
        }
        None
    }

    fn text(&mut self) -> Option<Option<&str>> {
        let Some(len) = self.num()? else {
            return Some(None);
        };
        let end = self.at.checked_add(usize::try_from(len).ok()?)?;
        let bytes = self.packed.get(self.at..end)?;
        self.at = end;
        Some(Some(std::str::from_utf8(bytes).ok()?))
    }

    fn call(&mut self) -> Option<CallSite> {
        let caller = self.num()?.map(|i| i as usize);
        let line = u32::try_from(self.num()??).ok()?;
        let col = u32::try_from(self.num()??).ok()?;
        let args = self.num()?.map(u32::try_from).transpose().ok()?;
        let kind = CallKind::parse(self.text()??);
        let usage = crate::model::Usage::parse(self.text()??);
        let name = self.text()??.to_string();
        let qualifier = self.text()?.map(str::to_string);
        let receiver_type = self.text()?.map(Receiver::decode);
        let arg_types = self.text()?.map(str::to_string);
        Some(CallSite {
            caller,
            line,
            col,
            name,
            qualifier,
            kind,
            receiver_type,
            usage,
            args,
            arg_types,
        })
    }
}

/// Appends `n` to `p` (`None` as 0, `Some(n)` as `n + 1`), seven bits a byte.
fn pack_num(p: &mut Vec<u8>, n: Option<u64>) {
    let mut n = n.map_or(0, |n| n + 1);
    while n >= 0x80 {
        p.push((n as u8) | 0x80);
        n >>= 7;
    }
    p.push(n as u8);
}

/// Appends `t` to `p`: its length ([`pack_num`]), then its bytes.
fn pack_text(p: &mut Vec<u8>, t: Option<&str>) {
    pack_num(p, t.map(|t| t.len() as u64));
    if let Some(t) = t {
        p.extend_from_slice(t.as_bytes());
    }
}

/// Resolves the held calls, a batch of whole files at a time, and writes each file's
/// calls with their callees; each file's buffer is let go once written.
pub(super) fn resolve_held(
    g: &Graph,
    conn: &Connection,
    pool: &rayon::ThreadPool,
    held: Vec<HeldCalls>,
    stats: &mut ResolveStats,
) -> Result<()> {
    let mut held = held.into_iter().peekable();
    while held.peek().is_some() {
        crate::interrupt::check()?;
        let mut files = Vec::new();
        let mut rows = Vec::with_capacity(CALL_BATCH);
        while rows.len() < CALL_BATCH
            && let Some(h) = held.next()
        {
            let calls = h.calls()?;
            // A file the graph does not hold (none: every file is stored) keeps its calls
            // unresolved.
            let file = g.file_index.get(&h.file_id).copied();
            if let Some(file) = file {
                rows.extend(calls.iter().map(|c| held_row(g, &h, file, c)));
            }
            files.push((h, file, calls));
        }
        let outcomes: Vec<Outcome> =
            pool.install(|| rows.par_iter().map(|c| g.resolve_call(c, 0)).collect());
        let mut outcomes = outcomes.into_iter();
        for (h, file, calls) in files {
            let targets: Option<Vec<CallTarget>> = file.map(|_| {
                outcomes
                    .by_ref()
                    .take(calls.len())
                    .map(|o| CallTarget {
                        callee_id: o.callee.map(|s| g.syms[s].id),
                        resolution: o.resolution,
                        candidates: o.candidates as i64,
                        external: o.external,
                    })
                    .collect()
            });
            stats.calls += calls.len() as u64;
            crate::store::insert_calls(conn, h.file_id, &h.symbol_ids, &calls, targets.as_deref())?;
        }
    }
    Ok(())
}

/// A held call of `file` (its index in the graph) as the resolver reads it, as
/// `read_calls` does a stored one.
fn held_row(g: &Graph, h: &HeldCalls, file: usize, c: &CallSite) -> CallRow {
    CallRow {
        id: 0,
        file,
        caller: c
            .caller
            .and_then(|i| h.symbol_ids.get(i))
            .and_then(|&id| g.symbol_at(id)),
        name: c.name.clone(),
        qualifier: c.qualifier.clone(),
        kind: c.kind,
        receiver_type: c.receiver_type.clone(),
        old: (None, None, 0, None),
        precise: false,
        args: c.args,
        arg_types: c.arg_types.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn held_calls_read_back_as_the_store_gives_them() -> Result<()> {
        let call = |caller, name: &str, receiver| CallSite {
            caller,
            line: 70_000,
            col: 3,
            name: name.to_string(),
            qualifier: Some("self.store".into()),
            kind: CallKind::Member,
            receiver_type: receiver,
            usage: crate::model::Usage::Value,
            args: Some(2),
            arg_types: Some("int,?".into()),
        };
        let calls = vec![
            call(
                Some(300),
                "push",
                Some(Receiver::CallResult("kv.New".into())),
            ),
            call(None, "naïve", None),
            CallSite {
                qualifier: None,
                args: None,
                arg_types: None,
                ..call(Some(0), "", Some(Receiver::Expr("<Router>.sub()".into())))
            },
            // A type name that reads back as a call's value, as it does from the store.
            call(None, "f", Some(Receiver::Type("g()".into()))),
        ];
        let held = HeldCalls::new(7, vec![1, 2], &calls);
        let back = held.calls()?;
        assert_eq!(back.len(), calls.len());
        for (b, c) in back.iter().zip(&calls) {
            let stored = c
                .receiver_type
                .as_ref()
                .map(|r| Receiver::decode(&r.encode()));
            assert_eq!(b.receiver_type, stored);
            let without = |c: &CallSite| CallSite {
                receiver_type: None,
                ..c.clone()
            };
            assert_eq!(format!("{:?}", without(b)), format!("{:?}", without(c)));
        }
        assert_eq!(
            back[3].receiver_type,
            Some(Receiver::CallResult("g".into()))
        );
        let cut = HeldCalls {
            packed: held.packed[..held.packed.len() - 1].to_vec(),
            ..held
        };
        assert!(cut.calls().is_err(), "a buffer cut short is an error");
        Ok(())
    }
}
