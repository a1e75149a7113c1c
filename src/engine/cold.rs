//! A map from request ids to records that a session keeps to its end but
//! rarely reads again (cancelled requests never answered, what answered
//! requests have beyond the common, the tool an open call names): the
//! latest records stay in memory, in two generations of up to
//! [`HOT_RECORDS`]; when the newer is full, the older is packed and written
//! to the spill file in one run, leaving in memory only where each record
//! is (see [`Places`]), and the newer takes its place. A record
//! that leaves soon (a call answered) never reaches the file.
//!
//! A record read back from the file lives in an arena until the map next
//! changes, so that a lookup through `&self` can lend it like any other.

use std::cell::OnceCell;

use foldhash::HashMap;
use typed_arena::Arena;

use super::lazy::Lazy;
use super::places::{Place, Places};
use crate::event::RequestId;
use crate::packed::{Packer, Tables, Unpacker};
use crate::spill::{Run, Spill};

/// Records per generation kept in memory.
pub const HOT_RECORDS: usize = 512;

/// [`HOT_RECORDS`], or the number a test set on its thread.
fn hot_records() -> usize {
    crate::limits::limit(HOT_RECORDS, |o| o.hot_records)
}

/// A record that can be packed in bytes.
pub trait Record: Sized {
    fn pack(&self, packer: &mut Packer);
    fn unpack(unpacker: &mut Unpacker) -> Self;
}

/// A value of fixed size (an answered request), as the record of a map.
impl<S: super::answered::Slot> Record for S {
    fn pack(&self, packer: &mut Packer) {
        let mut bytes = [0; super::answered::MAX_SLOT_BYTES];
        self.put(&mut bytes[..S::BYTES]);
        bytes[..S::BYTES].iter().for_each(|&byte| packer.byte(byte));
    }

    fn unpack(unpacker: &mut Unpacker) -> Self {
        let mut bytes = [0; super::answered::MAX_SLOT_BYTES];
        bytes[..S::BYTES]
            .iter_mut()
            .for_each(|byte| *byte = unpacker.byte());
        S::take(&bytes[..S::BYTES])
    }
}

/// A name or any text, as the record of a map.
impl Record for Box<str> {
    fn pack(&self, packer: &mut Packer) {
        packer.text(self);
    }

    fn unpack(unpacker: &mut Unpacker) -> Self {
        unpacker.text().into()
    }
}

/// Request ids to records, the older ones in the spill file.
pub struct ColdMap<V> {
    /// The newer generation in memory, and the older.
    hot: HashMap<RequestId, V>,
    older: HashMap<RequestId, V>,
    /// What has gone to the spill file, made when the first generation
    /// goes: most maps never fill one.
    frozen: Lazy<Frozen<V>>,
}

/// The records a map wrote to the spill file, and how to read them back.
struct Frozen<V> {
    cold: Places,
    /// The runs of the spill file that hold records, with how many of
    /// their records are still in `cold`.
    runs: Vec<(Run, u32)>,
    spill: Spill,
    tables: Tables,
    /// Records read back since the map last changed (made on the first:
    /// an arena allocates when made, and most maps never read one back).
    read_back: OnceCell<Arena<V>>,
}

impl<V> Default for ColdMap<V> {
    fn default() -> Self {
        ColdMap {
            hot: HashMap::default(),
            older: HashMap::default(),
            frozen: Lazy::default(),
        }
    }
}

impl<V> Default for Frozen<V> {
    fn default() -> Self {
        Frozen {
            cold: Places::default(),
            runs: Vec::new(),
            spill: Spill::default(),
            tables: Tables::default(),
            read_back: OnceCell::new(),
        }
    }
}

impl<V> std::fmt::Debug for ColdMap<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ColdMap")
            .field("hot", &(self.hot.len() + self.older.len()))
            .field("cold", &self.cold_len())
            .finish()
    }
}

impl<V> Drop for Frozen<V> {
    fn drop(&mut self) {
        if let Some(file) = self.spill.file() {
            let live = self.runs.iter().filter(|(_, live)| *live > 0);
            live.for_each(|(run, _)| file.free_run(*run));
        }
    }
}

/// A spill file that cannot be read back is lost memory: no finding could
/// be trusted after it.
fn unreadable(e: std::io::Error) -> ! {
    panic!("the temporary file that holds requests cannot be read back: {e}")
}

impl<V> ColdMap<V> {
    fn cold_len(&self) -> usize {
        self.frozen.existing().map_or(0, |frozen| frozen.cold.len())
    }
}

impl<V: Record> ColdMap<V> {
    pub fn len(&self) -> usize {
        self.hot.len() + self.older.len() + self.cold_len()
    }

    /// Whether the map holds nothing: every lookup checks first, as hashing
    /// an id costs more, and most maps are empty most of the time.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn contains_key(&self, id: &RequestId) -> bool {
        !self.is_empty()
            && (self.hot.contains_key(id)
                || self.older.contains_key(id)
                || self.frozen.existing().is_some_and(|f| f.cold.contains(id)))
    }

    pub fn get(&self, id: &RequestId) -> Option<&V> {
        if self.is_empty() {
            return None;
        }
        if let Some(record) = self.hot.get(id).or_else(|| self.older.get(id)) {
            return Some(record);
        }
        let frozen = self.frozen.existing()?;
        let place = frozen.cold.get(id)?;
        let read_back = frozen.read_back.get_or_init(Arena::new);
        Some(read_back.alloc(frozen.read(place)))
    }

    pub fn insert(&mut self, id: RequestId, record: V) {
        self.forget_read_back();
        if self.older.remove(&id).is_none() {
            self.remove_cold(&id);
        }
        self.hot.insert(id, record);
        if self.hot.len() > hot_records() {
            self.next_generation();
        }
    }

    pub fn remove_entry(&mut self, id: &RequestId) -> Option<(RequestId, V)> {
        if self.is_empty() {
            return None;
        }
        self.forget_read_back();
        let in_memory = self.hot.remove_entry(id);
        if let Some(entry) = in_memory.or_else(|| self.older.remove_entry(id)) {
            return Some(entry);
        }
        let frozen = self.frozen.existing_mut()?;
        let place = frozen.cold.remove(id)?;
        let record = frozen.read(place);
        frozen.release(place);
        Some((id.clone(), record))
    }

    /// Forgets the record of `id`, if there is one, without reading it.
    pub fn remove(&mut self, id: &RequestId) {
        if self.is_empty() {
            return;
        }
        self.forget_read_back();
        if self.hot.remove(id).is_none() && self.older.remove(id).is_none() {
            self.remove_cold(id);
        }
    }

    fn remove_cold(&mut self, id: &RequestId) {
        let Some(frozen) = self.frozen.existing_mut() else {
            return;
        };
        if let Some(place) = frozen.cold.remove(id) {
            frozen.release(place);
        }
    }

    /// A change to the map: what was read back is no longer lent.
    fn forget_read_back(&mut self) {
        if let Some(frozen) = self.frozen.existing_mut() {
            frozen.read_back.take();
        }
    }

    /// The older generation goes to the spill file and the newer takes its
    /// place; without a spill file, both stay.
    fn next_generation(&mut self) {
        if self.older.is_empty() || self.freeze_older() {
            self.older = std::mem::take(&mut self.hot);
        }
    }

    /// Writes the older generation to one run of the spill file.
    fn freeze_older(&mut self) -> bool {
        let frozen = self.frozen.make();
        if !frozen.write_run(&self.older) {
            return false;
        }
        self.older = HashMap::default();
        true
    }
}

impl<V: Record> Frozen<V> {
    fn read(&self, place: Place) -> V {
        let (Some(file), Some((run, _))) = (self.spill.file(), self.runs.get(place.run as usize))
        else {
            unreadable(std::io::ErrorKind::NotFound.into());
        };
        let mut bytes = vec![0; place.len as usize];
        let read = file.read_run(*run, place.offset.into(), &mut bytes);
        read.unwrap_or_else(|e| unreadable(e));
        V::unpack(&mut Unpacker::new(&bytes, &self.tables))
    }

    /// One record of `place`'s run has left: the run is freed with its last.
    fn release(&mut self, place: Place) {
        let Some((run, live)) = self.runs.get_mut(place.run as usize) else {
            return;
        };
        *live -= 1;
        if let (0, Some(file)) = (*live, self.spill.file()) {
            file.free_run(*run);
        }
    }

    /// Writes `records` to one run of the spill file; `false` when there is
    /// no spill file to write to.
    fn write_run(&mut self, records: &HashMap<RequestId, V>) -> bool {
        let Some(file) = self.spill.writable() else {
            return false;
        };
        let mut bytes = Vec::new();
        let mut places = Vec::with_capacity(records.len());
        let run = self.runs.len() as u32;
        // In the order of their ids, as `Places` indexes a run.
        let mut sorted: Vec<(&RequestId, &V)> = records.iter().collect();
        sorted.sort_unstable_by_key(|(id, _)| *id);
        for (id, record) in sorted {
            let offset = bytes.len();
            record.pack(&mut Packer::new(&mut bytes, &mut self.tables));
            let len = (bytes.len() - offset) as u32;
            places.push((
                id.clone(),
                Place {
                    run,
                    offset: offset as u32,
                    len,
                },
            ));
        }
        let Ok(written) = file.write_run(&bytes) else {
            self.spill.stop_writing();
            return false;
        };
        self.runs.push((written, places.len() as u32));
        self.cold.add_run(run, places);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_records_go_to_the_file_and_read_back() {
        let mut map: ColdMap<Box<str>> = ColdMap::default();
        let count = HOT_RECORDS as i64 * 3;
        for n in 0..count {
            map.insert(RequestId::int(n), format!("record {n}").into());
        }
        let in_memory = map.hot.len() + map.older.len();
        assert!(in_memory <= 2 * HOT_RECORDS + 2 && map.cold_len() + in_memory == count as usize);
        assert_eq!(map.len() as i64, count);
        let (one, two) = (map.get(&RequestId::int(1)), map.get(&RequestId::int(2)));
        assert_eq!((&**one.unwrap(), &**two.unwrap()), ("record 1", "record 2"));
        assert!(
            map.contains_key(&RequestId::int(count - 1))
                && !map.contains_key(&RequestId::int(count))
        );
        assert_eq!(
            &*map.remove_entry(&RequestId::int(1)).unwrap().1,
            "record 1"
        );
        map.remove(&RequestId::int(2));
        map.insert(RequestId::int(3), "again".into());
        assert_eq!(&**map.get(&RequestId::int(3)).unwrap(), "again");
        assert_eq!(map.len() as i64, count - 2);
        assert!(map.get(&RequestId::int(1)).is_none() && map.get(&RequestId::int(2)).is_none());
    }

    #[test]
    fn a_run_is_freed_with_its_last_record() {
        let mut map: ColdMap<Box<str>> = ColdMap::default();
        // Two generations: the first goes to the file when the second is full.
        for n in 0..2 * (HOT_RECORDS as i64 + 1) {
            map.insert(RequestId::int(n), Box::default());
        }
        let runs = |map: &ColdMap<Box<str>>| map.frozen.existing().unwrap().runs.clone();
        assert_eq!((runs(&map).len(), map.hot.len()), (1, 0));
        for n in 0..=HOT_RECORDS as i64 {
            map.remove(&RequestId::int(n));
        }
        assert_eq!((runs(&map)[0].1, map.len()), (0, HOT_RECORDS + 1));
    }
}
