//! What one side remembers of its answered requests and released progress
//! tokens, in memory that stays small on traces of millions of requests.
//!
//! Answered requests are kept for the whole session (a reused id is a
//! finding however old the first use), so each must be small: clients
//! number their requests in sequence, so integer ids sit in pages of
//! consecutive ids, an entry without its id or any hashing overhead.
//! Released tokens only matter while late progress may still name them, so
//! only the latest [`RELEASED_TOKENS_KEPT`] to [`RELEASED_TOKENS_KEPT`] x 2
//! are kept.

use foldhash::HashMap;

use crate::event::{Key, ProgressToken, RequestId};

/// Consecutive integer ids per page.
const PAGE_SLOTS: usize = 256;

/// Pages a side may start before they must be a quarter full on average:
/// scattered integer ids go to the hash map instead, where they cost less.
const SPARSE_PAGES_ALLOWED: usize = 4;

/// Released tokens remembered at least, per side: progress naming a token
/// released longer ago than that is taken for progress on an unknown token.
pub const RELEASED_TOKENS_KEPT: usize = 4096;

/// A map from request ids to `V`, in pages for integer ids that come in
/// sequence and in a hash map for the others.
#[derive(Debug)]
pub struct IdBook<V: Copy> {
    pages: HashMap<i64, Box<Page<V>>>,
    in_pages: usize,
    others: HashMap<RequestId, V>,
}

/// A page of consecutive ids: `None` for an id not in the book. (For an
/// answered request, `Option` costs nothing: it takes a spare value of the
/// method number's own `Option`.)
#[derive(Debug)]
struct Page<V> {
    slots: [Option<V>; PAGE_SLOTS],
}

impl<V: Copy> Default for IdBook<V> {
    fn default() -> Self {
        IdBook {
            pages: HashMap::default(),
            in_pages: 0,
            others: HashMap::default(),
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

impl<V: Copy> IdBook<V> {
    pub fn get(&self, id: &RequestId) -> Option<V> {
        if let Key::Int(n) = id.0 {
            let (page, slot) = page_of(n);
            if let Some(value) = self.pages.get(&page).and_then(|page| page.slots[slot]) {
                return Some(value);
            }
        }
        self.others.get(id).copied()
    }

    pub fn insert(&mut self, id: RequestId, value: V) {
        let Key::Int(n) = id.0 else {
            self.others.insert(id, value);
            return;
        };
        let (page, slot) = page_of(n);
        if !self.pages.contains_key(&page) && !self.may_start_page() {
            self.others.insert(id, value);
            return;
        }
        if !self.others.is_empty() {
            self.others.remove(&id);
        }
        let page = self.pages.entry(page).or_insert_with(|| {
            Box::new(Page {
                slots: [None; PAGE_SLOTS],
            })
        });
        if page.slots[slot].replace(value).is_none() {
            self.in_pages += 1;
        }
    }

    fn may_start_page(&self) -> bool {
        self.pages.len() < SPARSE_PAGES_ALLOWED
            || self.in_pages * 4 >= self.pages.len() * PAGE_SLOTS
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

    fn int(n: i64) -> RequestId {
        RequestId(Key::Int(n))
    }

    fn len<V: Copy>(book: &IdBook<V>) -> usize {
        book.in_pages + book.others.len()
    }

    fn text(s: &str) -> RequestId {
        RequestId(Key::Str(CompactString::from(s)))
    }

    #[test]
    fn ids_in_sequence_fill_pages_and_others_go_to_the_map() {
        let mut book = IdBook::default();
        for n in -300..5000 {
            book.insert(int(n), n * 2);
        }
        book.insert(text("5"), -1);
        assert_eq!(book.others.len(), 1);
        assert_eq!(len(&book), 5301);
        assert_eq!(
            (book.get(&int(-300)), book.get(&int(4999))),
            (Some(-600), Some(9998))
        );
        assert_eq!(
            (book.get(&int(5000)), book.get(&text("5"))),
            (None, Some(-1))
        );
        assert_eq!(book.get(&text("4")), None);
    }

    #[test]
    fn scattered_integer_ids_do_not_each_take_a_page() {
        let mut book = IdBook::default();
        for n in 0..1000i64 {
            book.insert(int(n * 1_000_003), n);
        }
        assert_eq!(book.pages.len(), SPARSE_PAGES_ALLOWED);
        assert_eq!(len(&book), 1000);
        assert!((0..1000i64).all(|n| book.get(&int(n * 1_000_003)) == Some(n)));
    }

    #[test]
    fn an_id_answered_again_is_one_entry_wherever_it_was() {
        let mut book = IdBook::default();
        for n in 0..SPARSE_PAGES_ALLOWED as i64 {
            book.insert(int(n * 1_000_000), 0);
        }
        // Page of 7 not startable yet (four sparse pages): 7 goes to the map.
        book.insert(int(7_000_000), 1);
        assert_eq!(book.others.len(), 1);
        for n in 0..2000 {
            book.insert(int(n), 2);
        }
        book.insert(int(7_000_000), 3);
        assert_eq!(book.get(&int(7_000_000)), Some(3));
        assert_eq!(len(&book), SPARSE_PAGES_ALLOWED + 2000);
    }

    #[test]
    fn released_tokens_are_kept_for_the_latest_releases_only() {
        let mut released = ReleasedTokens::default();
        let token = |n: usize| ProgressToken(Key::Str(format!("tok-{n}").into()));
        let kept = RELEASED_TOKENS_KEPT;
        for n in 0..kept * 3 {
            released.insert(token(n), int(n as i64));
        }
        assert!(released.get_key_value(&token(kept - 1)).is_none());
        assert_eq!(
            released
                .get_key_value(&token(kept))
                .map(|(_, id)| id.clone()),
            Some(int(kept as i64))
        );
        assert_eq!(
            released.remove(&token(kept * 3 - 1)),
            Some(int(kept as i64 * 3 - 1))
        );
        assert!(released.get_key_value(&token(kept * 3 - 1)).is_none());
    }
}
