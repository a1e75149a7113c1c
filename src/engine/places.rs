//! Where a [`super::cold::ColdMap`]'s records are in the spill file, by id.
//!
//! A long session's cold records are mostly cancelled requests with integer
//! ids close together (clients number their requests in sequence), so a
//! run of such ids is indexed by a bit per id of its span and an offset per
//! record: about 7 bytes a record, where a hash map entry with the id takes
//! about 60. Any other run keeps a hash map entry per record.

use std::collections::BTreeMap;

use foldhash::HashMap;

use crate::event::{Key, RequestId};

/// Where a cold record is: its run (a number the map gives it), and its
/// bytes in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    pub run: u32,
    pub offset: u32,
    pub len: u32,
}

/// Ids a dense run's span may hold per record at most: past that, a bit
/// per id would cost more than a map entry.
const SPAN_PER_RECORD: usize = 64;

/// Records' places by id.
#[derive(Debug, Default)]
pub struct Places {
    /// Runs of integer ids close together, by their first id and run.
    dense: BTreeMap<(i64, u32), DenseRun>,
    /// The widest span of a dense run: how far back from an id to look.
    widest: i64,
    others: HashMap<RequestId, Place>,
    len: usize,
}

/// The places of one run's records, whose ids are integers close together.
#[derive(Debug)]
struct DenseRun {
    /// Which ids of the span from the first the run holds, and which of
    /// those are still in the map.
    written: Box<[u64]>,
    live: Box<[u64]>,
    /// How many ids `written` holds before each of its words.
    ranks: Box<[u16]>,
    /// Where each record starts in the run, in the order of their ids, and
    /// where the last one ends.
    offsets: Box<[u32]>,
    live_count: usize,
}

fn bit(words: &[u64], index: usize) -> bool {
    words
        .get(index / 64)
        .is_some_and(|w| w & 1 << (index % 64) != 0)
}

impl DenseRun {
    /// The index of a run whose records, sorted by id, are `sorted`; `None`
    /// unless every id is an integer and they are close together.
    fn of(sorted: &[(RequestId, Place)]) -> Option<(i64, DenseRun)> {
        let int = |(id, _): &(RequestId, Place)| match id.0 {
            Key::Int(n) => Some(n),
            _ => None,
        };
        // Ranks are counted in 16 bits.
        if sorted.len() > usize::from(u16::MAX) {
            return None;
        }
        let first = int(sorted.first()?)?;
        let span = int(sorted.last()?)?.checked_sub(first)?.checked_add(1)?;
        if span as u128 > (sorted.len() * SPAN_PER_RECORD) as u128 {
            return None;
        }
        let mut written = vec![0u64; (span as usize).div_ceil(64)];
        for record in sorted {
            let index = (int(record)? - first) as usize;
            written[index / 64] |= 1 << (index % 64);
        }
        let mut ranks = Vec::with_capacity(written.len());
        written.iter().fold(0u16, |before, word| {
            ranks.push(before);
            before + word.count_ones() as u16
        });
        let mut offsets: Vec<u32> = sorted.iter().map(|(_, place)| place.offset).collect();
        let last = sorted.last()?.1;
        offsets.push(last.offset + last.len);
        let run = DenseRun {
            live: written.clone().into(),
            written: written.into(),
            ranks: ranks.into(),
            offsets: offsets.into(),
            live_count: sorted.len(),
        };
        Some((first, run))
    }

    /// Where the record of the id `index` past the first is, if the run holds it.
    fn place(&self, run: u32, index: usize) -> Option<Place> {
        if !bit(&self.live, index) {
            return None;
        }
        let (word, below) = (index / 64, (1u64 << (index % 64)) - 1);
        let rank =
            usize::from(self.ranks[word]) + (self.written[word] & below).count_ones() as usize;
        let offset = self.offsets[rank];
        let len = self.offsets[rank + 1] - offset;
        Some(Place { run, offset, len })
    }
}

impl Places {
    pub fn len(&self) -> usize {
        self.len
    }

    /// Adds the places of one run's records, sorted by id.
    pub fn add_run(&mut self, run: u32, sorted: Vec<(RequestId, Place)>) {
        self.len += sorted.len();
        match DenseRun::of(&sorted) {
            Some((first, dense)) => {
                let span = dense.written.len() as i64 * 64;
                self.widest = self.widest.max(span);
                self.dense.insert((first, run), dense);
            }
            None => self.others.extend(sorted),
        }
    }

    pub fn get(&self, id: &RequestId) -> Option<Place> {
        match id.0 {
            Key::Int(n) => self
                .dense_runs_near(n)
                .find_map(|(first, run, dense)| dense.place(run, (n - first) as usize)),
            _ => None,
        }
        .or_else(|| self.others.get(id).copied())
    }

    pub fn contains(&self, id: &RequestId) -> bool {
        self.get(id).is_some()
    }

    /// Forgets the place of `id`, and says where it was.
    pub fn remove(&mut self, id: &RequestId) -> Option<Place> {
        let place = self.get(id)?;
        self.len -= 1;
        let (Key::Int(n), false) = (&id.0, self.others.contains_key(id)) else {
            return self.others.remove(id);
        };
        let key = self
            .dense_runs_near(*n)
            .find(|(_, run, _)| *run == place.run);
        let Some((first, run, _)) = key else {
            return Some(place);
        };
        if let Some(dense) = self.dense.get_mut(&(first, run)) {
            let index = (n - first) as usize;
            dense.live[index / 64] &= !(1 << (index % 64));
            dense.live_count -= 1;
            if dense.live_count == 0 {
                self.dense.remove(&(first, run));
            }
        }
        Some(place)
    }

    /// The dense runs whose span may hold the integer id `n`.
    fn dense_runs_near(&self, n: i64) -> impl Iterator<Item = (i64, u32, &DenseRun)> {
        let from = (n.saturating_sub(self.widest), 0);
        self.dense
            .range(from..=(n, u32::MAX))
            .map(|(&(first, run), dense)| (first, run, dense))
            .filter(move |(first, _, dense)| ((n - first) as u64) < dense.written.len() as u64 * 64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Places for `ids` as one run's records, `len` bytes each.
    fn run_of(run: u32, ids: &[RequestId]) -> Vec<(RequestId, Place)> {
        let mut sorted = ids.to_vec();
        sorted.sort();
        let place = |k: usize| Place {
            run,
            offset: k as u32 * 10,
            len: 10,
        };
        sorted
            .into_iter()
            .enumerate()
            .map(|(k, id)| (id, place(k)))
            .collect()
    }

    #[test]
    fn ids_close_together_take_a_few_bytes_and_are_found() {
        let mut places = Places::default();
        let ids: Vec<RequestId> = (0..512).map(|k| RequestId::int(1_000 + k * 10)).collect();
        places.add_run(3, run_of(3, &ids));
        assert!(places.others.is_empty() && places.dense.len() == 1);
        assert_eq!(
            places.get(&RequestId::int(1_010)),
            Some(Place {
                run: 3,
                offset: 10,
                len: 10
            })
        );
        assert_eq!(places.get(&RequestId::int(1_011)), None);
        assert_eq!(
            places.remove(&RequestId::int(1_010)).map(|p| p.offset),
            Some(10)
        );
        assert!(
            !places.contains(&RequestId::int(1_010)) && places.contains(&RequestId::int(1_020))
        );
        assert_eq!(places.len(), 511);
    }

    #[test]
    fn scattered_and_string_ids_go_to_the_map() {
        let mut places = Places::default();
        places.add_run(0, run_of(0, &[RequestId::int(1), RequestId::int(1 << 40)]));
        places.add_run(
            1,
            run_of(1, &[RequestId::int(5), RequestId(Key::Str("5".into()))]),
        );
        assert!(places.dense.is_empty() && places.others.len() == 4);
        assert!(
            places.contains(&RequestId(Key::Str("5".into())))
                && places.contains(&RequestId::int(5))
        );
    }

    proptest! {
        /// Whatever the runs and removals, the places found are the ones added and not removed.
        #[test]
        fn places_are_found_until_removed(
            runs in proptest::collection::vec(proptest::collection::btree_set(-300i64..300, 1..40), 1..8),
            removed in proptest::collection::vec(-300i64..300, 0..100),
        ) {
            let mut places = Places::default();
            let mut expected = std::collections::HashMap::new();
            for (run, ids) in runs.iter().enumerate() {
                // An id is in one run at most, as in the map.
                let ids: Vec<RequestId> = ids.iter().filter(|n| !expected.contains_key(*n)).map(|&n| RequestId::int(n)).collect();
                for (id, place) in run_of(run as u32, &ids) {
                    let RequestId(Key::Int(n)) = id else { unreachable!() };
                    expected.insert(n, place);
                }
                places.add_run(run as u32, run_of(run as u32, &ids));
            }
            for n in removed {
                prop_assert_eq!(places.remove(&RequestId::int(n)), expected.remove(&n));
            }
            for n in -300..300 {
                prop_assert_eq!(places.get(&RequestId::int(n)), expected.get(&n).copied());
            }
            prop_assert_eq!(places.len(), expected.len());
        }
    }
}
