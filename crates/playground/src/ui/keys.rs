//! Stable keys for the editors' rows. Rows are keyed neither by position (removing a row would
//! hand its DOM, and the focus in it, to the next one) nor by name (names are editable: a rename
//! would rebuild the row under the cursor). Each editor keeps a [`RowKeys`] beside the list it
//! shows and follows every new version of the list with it, whatever changed the list: the
//! editor's own edits, undo and redo, a preset, a link or a file.

use std::collections::HashMap;

/// A row's key: the same while the row stays in the list, whatever it is renamed to.
pub type RowKey = u64;

/// The keys of the rows last shown, with the names they had.
#[derive(Debug, Default)]
pub struct RowKeys {
    rows: Vec<(RowKey, String)>,
    next: RowKey,
}

impl RowKeys {
    /// Follows the list to `names` (its rows as they are now, in order) and returns each row's key.
    ///
    /// A row keeps its key while its name stays in the list, wherever the row moves. A name that
    /// was not in the list takes the key of a row whose name is gone, in order (an edit renames
    /// one row at a time, so that is the renamed row), or else a new key. Names are unique in a
    /// valid scenario; a repeated one gets a key of its own.
    pub fn follow<'a>(&mut self, names: impl IntoIterator<Item = &'a str>) -> Vec<RowKey> {
        let names: Vec<&str> = names.into_iter().collect();
        let unchanged = names.len() == self.rows.len() && self.rows.iter().zip(&names).all(|((_, a), b)| a == b);
        if !unchanged {
            self.rows = self.reconciled(&names);
        }
        self.keys()
    }

    /// The keys of the rows last followed, in order.
    pub fn keys(&self) -> Vec<RowKey> {
        self.rows.iter().map(|(key, _)| *key).collect()
    }

    fn reconciled(&mut self, names: &[&str]) -> Vec<(RowKey, String)> {
        let mut by_name: HashMap<&str, usize> = HashMap::with_capacity(self.rows.len());
        for (at, (_, name)) in self.rows.iter().enumerate().rev() {
            by_name.insert(name.as_str(), at);
        }
        let mut taken = vec![false; self.rows.len()];
        let mut keys: Vec<Option<RowKey>> = names
            .iter()
            .map(|name| {
                let at = by_name.remove(name)?;
                taken[at] = true;
                Some(self.rows[at].0)
            })
            .collect();
        let mut gone = self.rows.iter().zip(&taken).filter(|(_, taken)| !**taken).map(|((key, _), _)| *key);
        for key in keys.iter_mut().filter(|key| key.is_none()) {
            *key = gone.next().or_else(|| {
                self.next += 1;
                Some(self.next)
            });
        }
        keys.into_iter().flatten().zip(names).map(|(key, name)| (key, name.to_string())).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn follow(keys: &mut RowKeys, names: &str) -> Vec<RowKey> {
        keys.follow(names.split_whitespace())
    }

    #[test]
    fn a_row_keeps_its_key_through_the_editors_edits() {
        let mut keys = RowKeys::default();
        let start = follow(&mut keys, "C1 C2 C3");
        assert_eq!(follow(&mut keys, "C1 C2 C3"), start, "nothing changed");
        // C2 crashes: C3 keeps its key (and its DOM, and the focus in it).
        assert_eq!(follow(&mut keys, "C1 C3"), [start[0], start[2]]);
        // A rename keeps the row, letter by letter.
        assert_eq!(follow(&mut keys, "C1 C3x"), [start[0], start[2]]);
        assert_eq!(follow(&mut keys, "C1 consumer-3"), [start[0], start[2]]);
        // Duplicate and add: new rows, new keys, the others unmoved.
        let grown = follow(&mut keys, "C1 C1-0 consumer-3 C0");
        assert_eq!([grown[0], grown[2]], [start[0], start[2]]);
        assert!(!start.contains(&grown[1]) && !start.contains(&grown[3]) && grown[1] != grown[3]);
    }

    #[test]
    fn undo_redo_and_loads_are_followed_by_name() {
        let mut keys = RowKeys::default();
        let start = follow(&mut keys, "C1 C2 C3");
        let crashed = follow(&mut keys, "C1 C3");
        // Undo brings C2 back: C1 and C3 keep theirs, C2 is a new row.
        let undone = follow(&mut keys, "C1 C2 C3");
        assert_eq!([undone[0], undone[2]], [start[0], start[2]]);
        assert!(!crashed.contains(&undone[1]));
        // Redo takes it away again.
        assert_eq!(follow(&mut keys, "C1 C3"), crashed);
        // Another group: rows whose names it shares keep their keys; moved rows move with them.
        let loaded = follow(&mut keys, "C3 A B C1");
        assert_eq!([loaded[0], loaded[3]], [crashed[1], crashed[0]]);
        assert!(loaded[1] != loaded[2] && !crashed.contains(&loaded[1]) && !crashed.contains(&loaded[2]));
        assert!(follow(&mut keys, "").is_empty());
    }

    #[test]
    fn keys_stay_unique_even_for_repeated_names() {
        let mut keys = RowKeys::default();
        follow(&mut keys, "a b");
        let repeated = follow(&mut keys, "a a b b c");
        let mut unique = repeated.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), 5, "{repeated:?}");
    }
}
