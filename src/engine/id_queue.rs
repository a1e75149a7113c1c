//! Request ids in the order they came, in a byte or two each for integer
//! ids that come about in sequence: a side's cancelled requests, queued
//! until they are forgotten, number a hundred thousand on a long trace.
//!
//! An integer id is written as its difference from the integer id before
//! it (a varint, zigzag-coded, shifted left one bit); any other id writes
//! the odd value 1 and waits whole beside the bytes.

use std::collections::VecDeque;

use crate::event::{Key, RequestId};
use crate::packed::{read_varint, unzigzag, write_varint, zigzag};

/// Ids first in, first out.
#[derive(Debug, Default)]
pub struct IdQueue {
    bytes: VecDeque<u8>,
    others: VecDeque<RequestId>,
    /// The last integer id pushed, and popped: the differences are from them.
    last_pushed: i64,
    last_popped: i64,
    len: usize,
}

impl IdQueue {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn push_back(&mut self, id: RequestId) {
        self.len += 1;
        let RequestId(Key::Int(n)) = id else {
            self.bytes.push_back(1);
            self.others.push_back(id);
            return;
        };
        let step = n.wrapping_sub(self.last_pushed);
        self.last_pushed = n;
        let bytes = &mut self.bytes;
        write_varint(u128::from(zigzag(step)) << 1, |byte| bytes.push_back(byte));
    }

    pub fn pop_front(&mut self) -> Option<RequestId> {
        let bytes = &mut self.bytes;
        let value = read_varint(|| bytes.pop_front())?;
        self.len -= 1;
        if value & 1 == 1 {
            return self.others.pop_front();
        }
        let step = unzigzag((value >> 1) as u64);
        self.last_popped = self.last_popped.wrapping_add(step);
        Some(RequestId(Key::Int(self.last_popped)))
    }

    /// Keeps only the ids `keep` says to, in the same order.
    pub fn retain(&mut self, mut keep: impl FnMut(&RequestId) -> bool) {
        let mut kept = IdQueue::default();
        while let Some(id) = self.pop_front() {
            if keep(&id) {
                kept.push_back(id);
            }
        }
        *self = kept;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn ids_in_sequence_take_a_byte_each() {
        let mut queue = IdQueue::default();
        (1000..2000).for_each(|n| queue.push_back(RequestId::int(n)));
        assert!(queue.bytes.len() < 1010, "{} bytes", queue.bytes.len());
        queue.retain(|id| *id != RequestId::int(1500));
        assert_eq!(queue.len(), 999);
        let popped: Vec<RequestId> = std::iter::from_fn(|| queue.pop_front()).collect();
        let expected: Vec<RequestId> = (1000..2000)
            .filter(|&n| n != 1500)
            .map(RequestId::int)
            .collect();
        assert_eq!(popped, expected);
    }

    proptest! {
        /// Any ids, pushed and popped in any interleaving, come out in the order they went in.
        #[test]
        fn ids_come_out_as_they_went_in(
            steps in proptest::collection::vec((any::<bool>(), any::<i64>(), "[0-9a-z]{0,3}", any::<bool>()), 0..200)
        ) {
            let mut queue = IdQueue::default();
            let mut expected = VecDeque::new();
            for (is_int, n, text, pop) in steps {
                if pop {
                    prop_assert_eq!(queue.pop_front(), expected.pop_front());
                } else {
                    let id = if is_int { RequestId::int(n) } else { RequestId(Key::Str(text.into())) };
                    queue.push_back(id.clone());
                    expected.push_back(id);
                }
                prop_assert_eq!(queue.len(), expected.len());
            }
            let rest: Vec<RequestId> = std::iter::from_fn(|| queue.pop_front()).collect();
            prop_assert_eq!(rest, Vec::from(expected));
        }
    }
}
