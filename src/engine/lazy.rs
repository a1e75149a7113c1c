//! A part of a session's state made on its first write. Most sessions
//! never use most parts (cancellations, tasks, the spill file), and a trace
//! may hold a million sessions: until it is made, a part costs 8 bytes.

#[derive(Debug)]
pub struct Lazy<T>(Option<Box<T>>);

impl<T> Default for Lazy<T> {
    fn default() -> Self {
        Lazy(None)
    }
}

impl<T: Default> Lazy<T> {
    /// The part, if it was made.
    pub fn existing(&self) -> Option<&T> {
        self.0.as_deref()
    }

    pub fn existing_mut(&mut self) -> Option<&mut T> {
        self.0.as_deref_mut()
    }

    /// The part, made now if it was not.
    pub fn make(&mut self) -> &mut T {
        self.0.get_or_insert_with(Box::default)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_is_made_on_its_first_write_only() {
        let mut part: Lazy<Vec<u8>> = Lazy::default();
        assert!(part.existing().is_none() && part.existing_mut().is_none());
        part.make().push(1);
        part.make().push(2);
        assert_eq!(part.existing(), Some(&vec![1, 2]));
        assert_eq!(std::mem::size_of::<Lazy<[u64; 64]>>(), 8);
    }
}
