//! The two encodings every metadata record has: Kafka's flexible-version binary form (what
//! `MetadataRecordSerde` writes into the log) and the compact JSON the generated
//! `*JsonConverter` classes print (what kafka-dump-log shows after `payload: `).

use crate::common::uuid::Uuid;

/// Builds the binary form the way Kafka's generated `write()` does for flexible versions:
/// big-endian integers, compact strings and arrays (unsigned varint length + 1), 16-byte uuids,
/// and a tagged-fields section at the end of every struct.
#[derive(Default)]
pub(crate) struct Writer {
    buf: Vec<u8>,
}

impl Writer {
    pub(crate) fn new() -> Writer {
        Writer::default()
    }

    pub(crate) fn into_bytes(self) -> Vec<u8> {
        self.buf
    }

    /// Kafka's `writeUnsignedVarint`: 7 bits a byte, low bits first.
    pub(crate) fn uvarint(&mut self, mut v: u32) {
        while v >= 0x80 {
            self.buf.push((v as u8 & 0x7f) | 0x80);
            v >>= 7;
        }
        self.buf.push(v as u8);
    }

    pub(crate) fn i8(&mut self, v: i8) {
        self.buf.push(v as u8);
    }

    pub(crate) fn bool(&mut self, v: bool) {
        self.buf.push(v as u8);
    }

    pub(crate) fn i16(&mut self, v: i16) {
        self.buf.extend_from_slice(&v.to_be_bytes());
    }

    pub(crate) fn u16(&mut self, v: u16) {
        self.buf.extend_from_slice(&v.to_be_bytes());
    }

    pub(crate) fn i32(&mut self, v: i32) {
        self.buf.extend_from_slice(&v.to_be_bytes());
    }

    pub(crate) fn i64(&mut self, v: i64) {
        self.buf.extend_from_slice(&v.to_be_bytes());
    }

    pub(crate) fn uuid(&mut self, v: Uuid) {
        self.buf.extend_from_slice(&v.0);
    }

    fn len_plus_one(&mut self, len: usize) {
        self.uvarint(len as u32 + 1);
    }

    /// A compact string: varint (length + 1), then the UTF-8 bytes.
    pub(crate) fn compact_string(&mut self, s: &str) {
        self.len_plus_one(s.len());
        self.buf.extend_from_slice(s.as_bytes());
    }

    /// A compact nullable string: 0 for null.
    pub(crate) fn compact_nullable_string(&mut self, s: Option<&str>) {
        match s {
            None => self.uvarint(0),
            Some(s) => self.compact_string(s),
        }
    }

    /// A compact array of int32.
    pub(crate) fn compact_i32s(&mut self, v: &[i32]) {
        self.len_plus_one(v.len());
        for &x in v {
            self.i32(x);
        }
    }

    /// A compact array of uuids.
    pub(crate) fn compact_uuids(&mut self, v: &[Uuid]) {
        self.len_plus_one(v.len());
        for &x in v {
            self.uuid(x);
        }
    }

    /// A compact array of structs, each written by `each` (which ends with its own tagged fields).
    pub(crate) fn compact_structs<T>(&mut self, v: &[T], mut each: impl FnMut(&mut Writer, &T)) {
        self.len_plus_one(v.len());
        for x in v {
            each(self, x);
        }
    }

    /// The tagged-fields section: count, then `tag`, `size`, bytes for each field, by tag order.
    pub(crate) fn tagged_fields(&mut self, mut fields: Vec<(u32, Vec<u8>)>) {
        fields.sort_by_key(|(tag, _)| *tag);
        self.uvarint(fields.len() as u32);
        for (tag, bytes) in fields {
            self.uvarint(tag);
            self.uvarint(bytes.len() as u32);
            self.buf.extend_from_slice(&bytes);
        }
    }
}

/// The bytes of one tagged field's value, written by `f`.
pub(crate) fn field(f: impl FnOnce(&mut Writer)) -> Vec<u8> {
    let mut w = Writer::new();
    f(&mut w);
    w.into_bytes()
}

/// A compact JSON object written field by field, in the order the calls are made (schema order),
/// the way Jackson prints an `ObjectNode`.
pub(crate) struct JsonObject {
    out: String,
    empty: bool,
}

impl JsonObject {
    pub(crate) fn new() -> JsonObject {
        JsonObject {
            out: String::from("{"),
            empty: true,
        }
    }

    fn key(&mut self, key: &str) {
        if !self.empty {
            self.out.push(',');
        }
        self.empty = false;
        self.out.push('"');
        self.out.push_str(key);
        self.out.push_str("\":");
    }

    /// A field whose value is already JSON text.
    pub(crate) fn raw(&mut self, key: &str, value: &str) {
        self.key(key);
        self.out.push_str(value);
    }

    /// A number (int8, int16, int32, int64, uint16).
    pub(crate) fn num(&mut self, key: &str, value: impl std::fmt::Display) {
        self.key(key);
        self.out.push_str(&value.to_string());
    }

    pub(crate) fn bool(&mut self, key: &str, value: bool) {
        self.raw(key, if value { "true" } else { "false" });
    }

    pub(crate) fn str(&mut self, key: &str, value: &str) {
        self.key(key);
        push_json_string(&mut self.out, value);
    }

    /// A nullable string: `null` when absent.
    pub(crate) fn nullable_str(&mut self, key: &str, value: Option<&str>) {
        match value {
            None => self.raw(key, "null"),
            Some(s) => self.str(key, s),
        }
    }

    /// A uuid as its Kafka base64 text.
    pub(crate) fn uuid(&mut self, key: &str, value: Uuid) {
        self.key(key);
        self.out.push('"');
        self.out.push_str(&value.to_string());
        self.out.push('"');
    }

    pub(crate) fn i32s(&mut self, key: &str, values: &[i32]) {
        let items: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        self.raw(key, &format!("[{}]", items.join(",")));
    }

    pub(crate) fn uuids(&mut self, key: &str, values: &[Uuid]) {
        let items: Vec<String> = values.iter().map(|v| format!("\"{v}\"")).collect();
        self.raw(key, &format!("[{}]", items.join(",")));
    }

    /// An array of objects, each already rendered.
    pub(crate) fn objects(&mut self, key: &str, values: Vec<String>) {
        self.raw(key, &format!("[{}]", values.join(",")));
    }

    pub(crate) fn finish(mut self) -> String {
        self.out.push('}');
        self.out
    }
}

/// A JSON string literal with Jackson's escapes (`\"`, `\\`, short escapes, `\u00XX` for other
/// control characters; everything else as is).
fn push_json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `MessageUtil.deepToString` / `Arrays.toString`: `[a, b]`.
pub(crate) fn java_list<T: std::fmt::Display>(v: &[T]) -> String {
    let items: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    format!("[{}]", items.join(", "))
}

/// A nullable array field of a generated message's `toString`: `null` or `[a, b]`.
pub(crate) fn java_nullable_list<T: std::fmt::Display>(v: Option<&[T]>) -> String {
    v.map(java_list).unwrap_or_else(|| "null".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uvarint_matches_kafka() {
        let enc = |v| {
            let mut w = Writer::new();
            w.uvarint(v);
            w.into_bytes()
        };
        assert_eq!(enc(0), vec![0]);
        assert_eq!(enc(127), vec![0x7f]);
        assert_eq!(enc(128), vec![0x80, 0x01]);
        assert_eq!(enc(300), vec![0xac, 0x02]);
    }

    #[test]
    fn json_strings_are_escaped() {
        let mut j = JsonObject::new();
        j.str("a", "x\"y\\z\n\u{1}");
        assert_eq!(j.finish(), r#"{"a":"x\"y\\z\n\u0001"}"#);
    }
}
