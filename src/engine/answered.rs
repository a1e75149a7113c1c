//! What one side remembers of its answered requests and released progress
//! tokens, in memory that stays small on traces of millions of requests.
//!
//! Answered requests are kept for the whole session (a reused id is a
//! finding however old the first use), so each must be small: clients
//! number their requests in sequence, so integer ids sit in pages of
//! consecutive ids, an entry without its id or any hashing overhead. Only
//! the latest [`RESIDENT_PAGES`] pages of a side stay in memory; older ones
//! wait in a temporary file (see [`super::spill`]), with one bit per id in
//! memory to tell which ids they hold, and are read back only for a
//! message that names one of those ids (a late answer, a reused id).
//! Released tokens only matter while late progress may still name them, so
//! only the latest [`RELEASED_TOKENS_KEPT`] to [`RELEASED_TOKENS_KEPT`] x 2
//! are kept.

use std::collections::VecDeque;

use foldhash::HashMap;

use super::cold::ColdMap;
use crate::event::{Key, ProgressToken, RequestId};
use crate::spill::{Block, Spill, BLOCK_BYTES};

/// Consecutive integer ids per page.
const PAGE_SLOTS: usize = 256;

/// Pages a side may start before they must be a quarter full on average:
/// scattered integer ids go to the hash map instead, where they cost less.
const SPARSE_PAGES_ALLOWED: usize = 4;

/// Pages of a side kept in memory (4,096 ids): the older ones are written
/// to the spill file.
pub const RESIDENT_PAGES: usize = 16;

/// [`RESIDENT_PAGES`], or the number a test set on its thread.
fn resident_pages() -> usize {
    crate::limits::limit(RESIDENT_PAGES, |o| o.resident_pages)
}

/// Released tokens remembered at least, per side: progress naming a token
/// released longer ago than that is taken for progress on an unknown token.
pub const RELEASED_TOKENS_KEPT: usize = 4096;

/// The most bytes a [`Slot`] takes: a block over [`PAGE_SLOTS`].
pub const MAX_SLOT_BYTES: usize = BLOCK_BYTES / PAGE_SLOTS;

/// A value an [`IdBook`] holds, written in a fixed number of bytes when its
/// page goes to the spill file.
pub trait Slot: Copy {
    /// Bytes per value: at most a block over [`PAGE_SLOTS`].
    const BYTES: usize;
    fn put(&self, into: &mut [u8]);
    fn take(from: &[u8]) -> Self;
}

/// A map from request ids to `V`, in pages for integer ids that come in
/// sequence and in a hash map for the others.
#[derive(Debug)]
pub struct IdBook<V: Slot> {
    /// Pages in memory.
    pages: HashMap<i64, Box<Page<V>>>,
    /// The pages in memory, in the order they came there.
    resident: VecDeque<i64>,
    /// Pages in the spill file.
    spilled: HashMap<i64, Spilled>,
    /// Values in pages, in memory or spilled.
    in_pages: usize,
    /// Ids not in pages (strings, scattered integers): the older ones
    /// wait in the spill file too. Made on the first: most sides have
    /// none, and a trace may hold millions of sessions.
    others: Option<Box<ColdMap<V>>>,
    spill: Spill,
}

/// A page of consecutive ids: `None` for an id not in the book. (For an
/// answered request, `Option` costs nothing: it takes a spare value of the
/// method number's own `Option`.)
#[derive(Debug)]
struct Page<V> {
    slots: [Option<V>; PAGE_SLOTS],
}

/// A page in the spill file: which of its slots hold a value, and where.
#[derive(Debug)]
struct Spilled {
    held: [u64; PAGE_SLOTS / 64],
    block: Block,
}

impl Spilled {
    fn holds(&self, slot: usize) -> bool {
        self.held[slot / 64] & 1 << (slot % 64) != 0
    }
}

impl<V: Slot> Default for IdBook<V> {
    fn default() -> Self {
        IdBook {
            pages: HashMap::default(),
            resident: VecDeque::new(),
            spilled: HashMap::default(),
            in_pages: 0,
            others: None,
            spill: Spill::default(),
        }
    }
}

impl<V: Slot> Drop for IdBook<V> {
    fn drop(&mut self) {
        if let Some(file) = self.spill.file() {
            self.spilled.values().for_each(|page| file.free(page.block));
        }
    }
}

/// The page of an integer id and its slot in it.
fn page_of(id: i64) -> (i64, usize) {
    (
        id.div_euclid(PAGE_SLOTS as i64),
        id.rem_euclid(PAGE_SLOTS as i64) as usize,
    )
}

/// A spill file that cannot be read back is lost memory: no finding could
/// be trusted after it.
fn unreadable(e: std::io::Error) -> ! {
    panic!("the temporary file that holds answered requests cannot be read back: {e}")
}

impl<V: Slot> IdBook<V> {
    pub fn get(&self, id: &RequestId) -> Option<V> {
        if let Key::Int(n) = id.0 {
            let (page, slot) = page_of(n);
            if let Some(value) = self.pages.get(&page).and_then(|page| page.slots[slot]) {
                return Some(value);
            }
            if let Some(value) = self.spilled_value(page, slot) {
                return Some(value);
            }
        }
        self.others.as_ref()?.get(id).copied()
    }

    /// The value in `slot` of `page`, if that page is spilled and holds one.
    fn spilled_value(&self, page: i64, slot: usize) -> Option<V> {
        let page = self.spilled.get(&page).filter(|page| page.holds(slot))?;
        let file = self.spill.file()?;
        let mut bytes = [0; MAX_SLOT_BYTES];
        let bytes = &mut bytes[..V::BYTES];
        let read = file.read(page.block, slot * V::BYTES, bytes);
        read.unwrap_or_else(|e| unreadable(e));
        Some(V::take(bytes))
    }

    pub fn insert(&mut self, id: RequestId, value: V) {
        let Key::Int(n) = id.0 else {
            self.other(id, value);
            return;
        };
        let (page, slot) = page_of(n);
        if !self.pages.contains_key(&page) {
            if self.spilled.contains_key(&page) {
                self.read_back(page);
            } else if !self.may_start_page() {
                self.other(id, value);
                return;
            }
        }
        if let Some(others) = &mut self.others {
            others.remove(&id);
        }
        let page = self.pages.entry(page).or_insert_with(|| {
            self.resident.push_back(page);
            Box::new(Page {
                slots: [None; PAGE_SLOTS],
            })
        });
        if page.slots[slot].replace(value).is_none() {
            self.in_pages += 1;
        }
        self.spill_oldest();
    }

    /// Keeps the value of an id that is not in a page.
    fn other(&mut self, id: RequestId, value: V) {
        self.others.get_or_insert_default().insert(id, value);
    }

    fn may_start_page(&self) -> bool {
        let pages = self.pages.len() + self.spilled.len();
        pages < SPARSE_PAGES_ALLOWED || self.in_pages * 4 >= pages * PAGE_SLOTS
    }

    /// Brings spilled `page` back into memory.
    fn read_back(&mut self, number: i64) {
        let (Some(page), Some(file)) = (self.spilled.remove(&number), self.spill.file()) else {
            return;
        };
        let mut bytes = vec![0; PAGE_SLOTS * V::BYTES];
        let read = file.read(page.block, 0, &mut bytes);
        read.unwrap_or_else(|e| unreadable(e));
        file.free(page.block);
        let mut slots = [None; PAGE_SLOTS];
        for (slot, value) in slots.iter_mut().enumerate() {
            if page.holds(slot) {
                *value = Some(V::take(&bytes[slot * V::BYTES..][..V::BYTES]));
            }
        }
        self.pages.insert(number, Box::new(Page { slots }));
        self.resident.push_back(number);
    }

    /// Writes the oldest pages in memory to the spill file while there are
    /// more than [`RESIDENT_PAGES`]; without a spill file, keeps them.
    fn spill_oldest(&mut self) {
        while self.resident.len() > resident_pages() {
            let Some(file) = self.spill.writable() else {
                return;
            };
            let number = self.resident[0];
            let page = &self.pages[&number];
            let mut bytes = vec![0; PAGE_SLOTS * V::BYTES];
            let mut held = [0u64; PAGE_SLOTS / 64];
            for (slot, value) in page.slots.iter().enumerate() {
                if let Some(value) = value {
                    value.put(&mut bytes[slot * V::BYTES..][..V::BYTES]);
                    held[slot / 64] |= 1 << (slot % 64);
                }
            }
            let Ok(block) = file.write(&bytes) else {
                self.spill.stop_writing();
                return;
            };
            self.resident.pop_front();
            self.pages.remove(&number);
            self.spilled.insert(number, Spilled { held, block });
        }
    }
}

/// Progress tokens no longer active, with the last request that carried
/// each: the latest ones only, in two generations (a token is looked up in
/// the current one, then in the one before; when the current one is full it
/// becomes the one before, and the older is forgotten).
#[derive(Debug, Default)]
pub struct ReleasedTokens {
    current: HashMap<ProgressToken, RequestId>,
    previous: HashMap<ProgressToken, RequestId>,
}

impl ReleasedTokens {
    pub fn insert(&mut self, token: ProgressToken, id: RequestId) {
        if self.current.len() >= RELEASED_TOKENS_KEPT && !self.current.contains_key(&token) {
            self.previous = std::mem::take(&mut self.current);
        }
        self.previous.remove(&token);
        self.current.insert(token, id);
    }

    pub fn remove(&mut self, token: &ProgressToken) -> Option<RequestId> {
        self.current
            .remove(token)
            .or_else(|| self.previous.remove(token))
    }

    /// Forgets `token` if `id` is the request that last carried it.
    pub fn remove_if_held_by(&mut self, token: &ProgressToken, id: &RequestId) {
        for generation in [&mut self.current, &mut self.previous] {
            if generation.get(token) == Some(id) {
                generation.remove(token);
            }
        }
    }

    pub fn get_key_value(&self, token: &ProgressToken) -> Option<(&ProgressToken, &RequestId)> {
        self.current
            .get_key_value(token)
            .or_else(|| self.previous.get_key_value(token))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use compact_str::CompactString;

    impl Slot for i64 {
        const BYTES: usize = 8;
        fn put(&self, into: &mut [u8]) {
            into.copy_from_slice(&self.to_le_bytes());
        }
        fn take(from: &[u8]) -> Self {
            i64::from_le_bytes(from.try_into().unwrap())
        }
    }

    fn others<V: Slot>(book: &IdBook<V>) -> usize {
        book.others.as_ref().map_or(0, |others| others.len())
    }

    fn len<V: Slot>(book: &IdBook<V>) -> usize {
        book.in_pages + others(book)
    }

    fn text(s: &str) -> RequestId {
        RequestId(Key::Str(CompactString::from(s)))
    }

    #[test]
    fn ids_in_sequence_fill_pages_and_others_go_to_the_map() {
        let mut book = IdBook::default();
        for n in -300..5000 {
            book.insert(RequestId::int(n), n * 2);
        }
        book.insert(text("5"), -1);
        assert_eq!(others(&book), 1);
        assert_eq!(len(&book), 5301);
        assert_eq!(
            (
                book.get(&RequestId::int(-300)),
                book.get(&RequestId::int(4999))
            ),
            (Some(-600), Some(9998))
        );
        assert_eq!(
            (book.get(&RequestId::int(5000)), book.get(&text("5"))),
            (None, Some(-1))
        );
        assert_eq!(book.get(&text("4")), None);
    }

    #[test]
    fn string_ids_past_two_generations_wait_in_the_file() {
        let mut book = IdBook::default();
        let count = 3 * crate::engine::cold::HOT_RECORDS as i64;
        for n in 0..count {
            book.insert(text(&format!("srv-{n}")), n);
        }
        assert_eq!(len(&book) as i64, count);
        assert!((0..count).all(|n| book.get(&text(&format!("srv-{n}"))) == Some(n)));
        // Answered again: one entry, with the new value.
        book.insert(text("srv-0"), -1);
        assert_eq!(
            (len(&book) as i64, book.get(&text("srv-0"))),
            (count, Some(-1))
        );
    }

    #[test]
    fn scattered_integer_ids_do_not_each_take_a_page() {
        let mut book = IdBook::default();
        for n in 0..1000i64 {
            book.insert(RequestId::int(n * 1_000_003), n);
        }
        assert_eq!(book.pages.len(), SPARSE_PAGES_ALLOWED);
        assert_eq!(len(&book), 1000);
        assert!((0..1000i64).all(|n| book.get(&RequestId::int(n * 1_000_003)) == Some(n)));
    }

    #[test]
    fn an_id_answered_again_is_one_entry_wherever_it_was() {
        let mut book = IdBook::default();
        for n in 0..SPARSE_PAGES_ALLOWED as i64 {
            book.insert(RequestId::int(n * 1_000_000), 0);
        }
        // Page of 7 not startable yet (four sparse pages): 7 goes to the map.
        book.insert(RequestId::int(7_000_000), 1);
        assert_eq!(others(&book), 1);
        for n in 0..2000 {
            book.insert(RequestId::int(n), 2);
        }
        book.insert(RequestId::int(7_000_000), 3);
        assert_eq!(book.get(&RequestId::int(7_000_000)), Some(3));
        assert_eq!(len(&book), SPARSE_PAGES_ALLOWED + 2000);
    }

    #[test]
    fn old_pages_wait_in_the_spill_file_and_come_back_when_written_again() {
        let mut book = IdBook::default();
        let ids = (RESIDENT_PAGES * PAGE_SLOTS * 3) as i64;
        for n in 0..ids {
            book.insert(RequestId::int(n), n + 1);
        }
        assert_eq!(book.pages.len(), RESIDENT_PAGES);
        assert_eq!(book.spilled.len(), RESIDENT_PAGES * 2);
        assert!((0..ids).all(|n| book.get(&RequestId::int(n)) == Some(n + 1)));
        assert_eq!(book.get(&RequestId::int(ids)), None);
        // An id of the first page answered again: the page is read back
        // whole, and the oldest in memory goes out in its place.
        book.insert(RequestId::int(3), -3);
        assert!(book.pages.contains_key(&0) && !book.spilled.contains_key(&0));
        assert_eq!(
            (book.pages.len(), len(&book)),
            (RESIDENT_PAGES, ids as usize)
        );
        assert_eq!(
            (book.get(&RequestId::int(3)), book.get(&RequestId::int(4))),
            (Some(-3), Some(5))
        );
        assert!((0..ids).all(|n| book.get(&RequestId::int(n)).is_some()));
    }

    #[test]
    fn released_tokens_are_kept_for_the_latest_releases_only() {
        let mut released = ReleasedTokens::default();
        let token = |n: usize| ProgressToken(Key::Str(format!("tok-{n}").into()));
        let kept = RELEASED_TOKENS_KEPT;
        for n in 0..kept * 3 {
            released.insert(token(n), RequestId::int(n as i64));
        }
        assert!(released.get_key_value(&token(kept - 1)).is_none());
        assert_eq!(
            released
                .get_key_value(&token(kept))
                .map(|(_, id)| id.clone()),
            Some(RequestId::int(kept as i64))
        );
        assert_eq!(
            released.remove(&token(kept * 3 - 1)),
            Some(RequestId::int(kept as i64 * 3 - 1))
        );
        assert!(released.get_key_value(&token(kept * 3 - 1)).is_none());
    }
}
