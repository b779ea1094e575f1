//! Java-compatible helpers, so outputs list things in the order Kafka's Java tools and
//! controller print them: `String.hashCode()` and `java.util.HashMap` iteration order.

/// Java's `String.hashCode()`.
pub fn java_string_hash(s: &str) -> i32 {
    s.encode_utf16()
        .fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(c as i32))
}

/// The table size of a `java.util.HashMap` after `n` puts, created with `new HashMap<>()`
/// (`initial` None) or `new HashMap<>(initial)`.
pub fn java_hash_map_capacity(n: usize, initial: Option<usize>) -> usize {
    let mut cap = match initial {
        None => 16,
        Some(c) => c.max(1).next_power_of_two(),
    };
    while n > cap * 3 / 4 {
        cap *= 2;
    }
    cap
}

/// `items` in the iteration order of a Java `HashMap` of table size `capacity` they were put
/// into in the given order (bucket `(h ^ h >>> 16) & (capacity - 1)`, then insertion order).
pub fn java_hash_map_order<T>(items: Vec<T>, hash: impl Fn(&T) -> i32, capacity: usize) -> Vec<T> {
    let mut keyed: Vec<(usize, usize, T)> = items
        .into_iter()
        .enumerate()
        .map(|(i, t)| {
            let h = hash(&t) as u32;
            let bucket = ((h ^ (h >> 16)) as usize) & (capacity - 1);
            (bucket, i, t)
        })
        .collect();
    keyed.sort_by_key(|(b, i, _)| (*b, *i));
    keyed.into_iter().map(|(_, _, t)| t).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_hashes_match_java() {
        assert_eq!(java_string_hash(""), 0);
        assert_eq!(java_string_hash("a"), 97);
        // "orders".hashCode() in Java.
        assert_eq!(java_string_hash("orders"), -1008770331);
        assert_eq!(java_hash_map_capacity(0, Some(0)), 1);
        assert_eq!(java_hash_map_capacity(1, Some(1)), 2);
        assert_eq!(java_hash_map_capacity(3, Some(3)), 4);
        assert_eq!(java_hash_map_capacity(35, None), 64);
    }
}
