//! A bounded least-recently-used map: what the server keeps in memory on behalf of users
//! (compiled bots, rendered game pages) is bounded by entries and by a cost (bytes), so a
//! user who uploads many bots or walks every game page cannot grow the server without end.
//!
//! The recency order is the `lru` crate's; this adds the second bound, a cost per entry.

use lru::LruCache;
use std::hash::Hash;

/// A map of at most `max_entries` entries whose costs add up to at most `max_cost`; the
/// least recently used entries are evicted first.
#[derive(Debug)]
pub struct Lru<K: Hash + Eq, V> {
    /// Each value with its cost. Unbounded for `lru`: both bounds are kept here.
    entries: LruCache<K, (V, usize)>,
    cost: usize,
    max_entries: usize,
    max_cost: usize,
}

impl<K: Hash + Eq, V> Lru<K, V> {
    /// An empty map with these bounds (0 entries: nothing is kept).
    pub fn new(max_entries: usize, max_cost: usize) -> Lru<K, V> {
        Lru {
            entries: LruCache::unbounded(),
            cost: 0,
            max_entries,
            max_cost,
        }
    }

    /// The value of `key`, now the most recently used.
    pub fn get(&mut self, key: &K) -> Option<&V> {
        self.entries.get(key).map(|(value, _)| value)
    }

    /// Keep `value` under `key` (replacing any), evicting the least recently used entries
    /// until the bounds hold. A value costing more than the whole bound is not kept.
    pub fn insert(&mut self, key: K, value: V, cost: usize) {
        self.remove(&key);
        if self.max_entries == 0 || cost > self.max_cost {
            return;
        }
        while self.entries.len() >= self.max_entries || self.cost + cost > self.max_cost {
            let Some((_, (_, evicted))) = self.entries.pop_lru() else {
                break;
            };
            self.cost -= evicted;
        }
        self.cost += cost;
        self.entries.put(key, (value, cost));
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.cost = 0;
    }

    /// Forget `key`.
    pub fn remove(&mut self, key: &K) {
        if let Some((_, cost)) = self.entries.pop(key) {
            self.cost -= cost;
        }
    }

    /// Entries kept.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing is kept.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The costs of the entries kept, added up.
    pub fn cost(&self) -> usize {
        self.cost
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_recently_used_entries_go_first_and_both_bounds_hold() {
        let mut lru = Lru::new(3, 100);
        lru.insert(1, "a", 10);
        lru.insert(2, "b", 10);
        lru.insert(3, "c", 10);
        assert_eq!(lru.get(&1), Some(&"a"), "1 is now the most recent");
        lru.insert(4, "d", 10);
        assert_eq!(lru.get(&2), None, "2 was the least recently used");
        assert_eq!((lru.len(), lru.cost()), (3, 30));
        // The cost bound: 85 more evicts the two oldest (3 for room, then 1 for cost).
        lru.insert(5, "e", 85);
        assert_eq!(lru.get(&3), None);
        assert_eq!(lru.get(&1), None);
        assert_eq!(lru.get(&4), Some(&"d"));
        assert_eq!((lru.len(), lru.cost()), (2, 95));
        // Too costly to keep at all: refused, nothing evicted for it.
        lru.insert(6, "f", 101);
        assert_eq!(lru.get(&6), None);
        assert_eq!((lru.len(), lru.cost()), (2, 95));
        // Replacing a key replaces its cost.
        lru.insert(4, "d2", 5);
        assert_eq!(lru.get(&4), Some(&"d2"));
        assert_eq!((lru.len(), lru.cost()), (2, 90));
        lru.remove(&5);
        assert_eq!((lru.len(), lru.cost()), (1, 5));
        let mut none: Lru<i32, ()> = Lru::new(0, 100);
        none.insert(1, (), 1);
        assert!(none.is_empty());
    }
}
