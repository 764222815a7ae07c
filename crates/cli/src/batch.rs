//! `kap batch`: one group snapshot per input line, one result per output line, never stopping on a
//! bad line.
//!
//! In: `{"id":"g1","strategy":"sticky","topics":{"t0":3},"members":[{"id":"C0","topics":["t0"],...}]}`
//! Out: `{"id":"g1","assignment":{"C0":[["t0",0],...]},"error":null}`, members in input order,
//! partitions in the order Kafka lists them; `"assignment":null` and the reason on a bad line. The
//! README's "The batch contract" lists every field and every refusal.
//!
//! Built to cost little beside the assignor: a line is read once into a reused buffer, parsed into
//! typed structs that borrow their names from it, and the answer is written straight to the
//! buffered output (no `serde_json::Value` on the way in or out).

use std::collections::HashMap;
use std::io::{self, BufRead, Write};
use std::sync::Arc;

use assignor::{Assignment, TopicPartition};
use scenario::format::Name;
use serde_json::error::Category;
use serde_json::value::RawValue;

/// The longest input line read (64 MiB): more than twice Kafka's largest assignor test written as
/// a batch line (1,000,000 owned partitions, 28 MB). A longer line is answered with an error
/// without being held in memory, and the stream goes on.
pub const MAX_LINE: usize = 64 << 20;

/// The most commas a line may hold (6,000,000): every list item and object entry after the first
/// of its list needs one, so this bounds what a line can make the parser build, whatever the
/// items are (a name costs about 80 bytes once read and turned into a group). Kafka's largest
/// assignor test as a batch line has 3,000,000.
pub const MAX_ITEMS: usize = 6_000_000;

/// Answers every line of `input` on `output`. Only I/O errors stop it; a bad line gets its error line.
pub fn run(input: impl BufRead, output: &mut impl Write) -> io::Result<()> {
    run_with_limit(input, output, MAX_LINE)
}

fn run_with_limit(mut input: impl BufRead, output: &mut impl Write, limit: usize) -> io::Result<()> {
    let mut line = Vec::new();
    let mut number = 0usize;
    loop {
        number += 1;
        match read_line(&mut input, &mut line, limit)? {
            Read::End => break,
            Read::TooLong => failure(
                output,
                None,
                &format!("line {number} is longer than {limit} bytes (the batch line limit); skipped unread"),
            )?,
            Read::Line => match std::str::from_utf8(&line) {
                Ok(text) if text.trim().is_empty() => {}
                Ok(_) if memchr::memchr_iter(b',', &line).count() > MAX_ITEMS => failure(
                    output,
                    None,
                    &format!("line {number} has more than {MAX_ITEMS} items (the batch limit); not read"),
                )?,
                Ok(text) => answer(text, output)?,
                Err(e) => failure(output, None, &format!("line {number} is not UTF-8: {e}"))?,
            },
        }
    }
    output.flush()
}

enum Read {
    /// `buffer` holds the next line, without its line end.
    Line,
    /// The next line is longer than the limit; it was skipped.
    TooLong,
    /// No more input.
    End,
}

/// Reads one line into `buffer` (cleared first), holding at most `limit` bytes of it.
fn read_line(input: &mut impl BufRead, buffer: &mut Vec<u8>, limit: usize) -> io::Result<Read> {
    buffer.clear();
    let mut too_long = false;
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (content, used, ended) = match memchr::memchr(b'\n', chunk) {
            Some(at) => (&chunk[..at], at + 1, true),
            None => (chunk, chunk.len(), false),
        };
        if !too_long && buffer.len() + content.len() > limit {
            too_long = true;
            *buffer = Vec::new();
        }
        if !too_long {
            buffer.extend_from_slice(content);
        }
        input.consume(used);
        if ended {
            break;
        }
    }
    Ok(match (any, too_long) {
        (false, _) => Read::End,
        (true, true) => Read::TooLong,
        (true, false) => {
            if buffer.last() == Some(&b'\r') {
                buffer.pop();
            }
            Read::Line
        }
    })
}

/// Writes the answer for one line. This is the one place where a line's kind is decided: a line
/// with `"protocol":"consumer"` asks the group coordinator for a target assignment (KIP-848,
/// [`scenario::consumer_snapshot`]); every other line is a classic-protocol group snapshot
/// ([`scenario::Snapshot`]).
fn answer(line: &str, output: &mut impl Write) -> io::Result<()> {
    // serde would also read a struct from an array of its fields in order: a snapshot is an object.
    if !line.trim_start().starts_with('{') && serde_json::from_str::<serde::de::IgnoredAny>(line).is_ok() {
        return failure(output, None, "not a group snapshot: a snapshot is a JSON object");
    }
    // A classic line is read once: only a line that is not a classic snapshot is looked at again
    // for `"protocol":"consumer"` (a second pass over a 28 MB line costs a tenth of the answer).
    let parsed = serde_json::from_str::<scenario::Snapshot>(line);
    let classic = parsed.as_ref().is_ok_and(|s| s.protocol.as_ref().is_none_or(|p| p.as_str() == "classic"));
    if !classic && scenario::consumer_snapshot::is_consumer_line(line) {
        serde_json::to_writer(&mut *output, &scenario::consumer_snapshot::answer(line))?;
        return output.write_all(b"\n");
    }
    let snapshot = match parsed {
        Ok(snapshot) => snapshot,
        Err(e) => {
            let what = match e.classify() {
                Category::Data => "not a group snapshot",
                Category::Syntax | Category::Eof | Category::Io => "not JSON",
            };
            return failure(output, id_of(line), &format!("{what}: {e}"));
        }
    };
    // What the answer needs once the snapshot has become the group.
    let id = snapshot.id;
    let members: Vec<Name> = snapshot.members.iter().map(|m| m.id.clone()).collect();
    let topics: Vec<Name> = snapshot.topics.0.iter().map(|(name, _)| name.clone()).collect();
    let (strategy, group) = match snapshot.into_group() {
        Ok(parsed) => parsed,
        Err(message) => return failure(output, id, &message),
    };
    match assignor::assign_owned(strategy, group) {
        Ok(assignment) => write_assignment(output, id, &members, &topics, &assignment),
        Err(e) => failure(output, id, &e.to_string()),
    }
}

/// The `id` of a line that is not a valid snapshot, when it can still be read.
fn id_of(line: &str) -> Option<&RawValue> {
    #[derive(serde::Deserialize)]
    struct IdOnly<'a> {
        #[serde(default, borrow)]
        id: Option<&'a RawValue>,
    }
    serde_json::from_str::<IdOnly>(line).ok().and_then(|only| only.id)
}

fn write_id(output: &mut impl Write, id: Option<&RawValue>) -> io::Result<()> {
    output.write_all(b"{\"id\":")?;
    output.write_all(id.map_or("null", RawValue::get).as_bytes())
}

fn write_str(output: &mut impl Write, text: &str) -> io::Result<()> {
    serde_json::to_writer(output, text).map_err(io::Error::from)
}

fn failure(output: &mut impl Write, id: Option<&RawValue>, message: &str) -> io::Result<()> {
    write_id(output, id)?;
    output.write_all(b",\"assignment\":null,\"error\":")?;
    write_str(output, message)?;
    output.write_all(b"}\n")
}

/// `{"id":…,"assignment":{"C0":[["t0",0],…],…},"error":null}`, members in input order.
fn write_assignment(
    output: &mut impl Write,
    id: Option<&RawValue>,
    members: &[Name],
    topics: &[Name],
    assignment: &Assignment,
) -> io::Result<()> {
    write_id(output, id)?;
    output.write_all(b",\"assignment\":{")?;
    let mut pairs = Pairs::new(topics.iter().map(Name::as_str));
    for (i, member) in members.iter().enumerate() {
        if i > 0 {
            output.write_all(b",")?;
        }
        write_str(output, member)?;
        output.write_all(b":")?;
        pairs.write(output, assignment.members.get(member.as_str()).map(Vec::as_slice).unwrap_or_default())?;
    }
    output.write_all(b"},\"error\":null}\n")
}

/// Writes partition lists as `[["t0",0],…]`, each topic name escaped once.
pub struct Pairs {
    /// Per topic, in the group's order: `["name",`, and the shared name the core hands out for it
    /// once it has been seen.
    topics: Vec<(Vec<u8>, Option<Arc<str>>)>,
    position: HashMap<Arc<str>, usize>,
    /// The topic of the last pair written.
    last: usize,
    number: itoa::Buffer,
}

impl Pairs {
    pub fn new<'t>(names: impl Iterator<Item = &'t str>) -> Self {
        let mut topics = Vec::new();
        let mut position = HashMap::new();
        for name in names {
            position.entry(Arc::from(name)).or_insert_with(|| {
                topics.push((Self::prefix(name), None));
                topics.len() - 1
            });
        }
        Pairs { topics, position, last: 0, number: itoa::Buffer::new() }
    }

    fn prefix(topic: &str) -> Vec<u8> {
        let mut prefix = b"[".to_vec();
        // Writing to a Vec cannot fail.
        let _ = serde_json::to_writer(&mut prefix, topic);
        prefix.push(b',');
        prefix
    }

    /// The position of `topic`'s name. The core hands out one shared name per topic, and lists
    /// usually run through a topic's partitions or through the topics in order: the last topic
    /// and the one after it are tried by address before the name is hashed.
    fn find(&mut self, topic: &Arc<str>) -> Option<usize> {
        let seen =
            |i: usize| self.topics.get(i).and_then(|(_, seen)| seen.as_ref()).is_some_and(|s| Arc::ptr_eq(s, topic));
        let found = if seen(self.last) {
            self.last
        } else if seen(self.last + 1) {
            self.last + 1
        } else {
            let i = *self.position.get(&**topic)?;
            if let Some((_, seen)) = self.topics.get_mut(i) {
                *seen = Some(Arc::clone(topic));
            }
            i
        };
        self.last = found;
        Some(found)
    }

    pub fn write(&mut self, output: &mut impl Write, list: &[TopicPartition]) -> io::Result<()> {
        output.write_all(b"[")?;
        for (i, tp) in list.iter().enumerate() {
            if i > 0 {
                output.write_all(b",")?;
            }
            match self.find(&tp.topic).and_then(|t| self.topics.get(t)) {
                Some((prefix, _)) => output.write_all(prefix)?,
                // Not a topic of the group (cannot happen with the core's output): spelled out.
                None => output.write_all(&Self::prefix(&tp.topic))?,
            }
            output.write_all(self.number.format(tp.partition).as_bytes())?;
            output.write_all(b"]")?;
        }
        output.write_all(b"]")
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;

    fn batch(input: &[u8], limit: usize) -> Vec<serde_json::Value> {
        let mut output = Vec::new();
        run_with_limit(input, &mut output, limit).unwrap_or_else(|e| panic!("{e}"));
        let text = String::from_utf8(output).unwrap_or_else(|e| panic!("{e}"));
        text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}"))).collect()
    }

    const GOOD: &str = r#"{"id":1,"strategy":"range","topics":{"t0":2},"members":[{"id":"C0","topics":["t0"]}]}"#;

    #[test]
    fn a_bad_line_gets_its_error_and_the_stream_goes_on() {
        let mut input = Vec::new();
        input.extend_from_slice(b"{\"id\":\"\xff\"}\n");
        input.extend_from_slice(GOOD.as_bytes());
        input.extend_from_slice(b"\r\n\n   \n");
        input.extend_from_slice(&[b'x'; 300]);
        input.push(b'\n');
        input.extend_from_slice(GOOD.as_bytes());
        let answers = batch(&input, 200);
        assert_eq!(answers.len(), 4);
        assert_eq!(answers[0]["error"], "line 1 is not UTF-8: invalid utf-8 sequence of 1 bytes from index 7");
        assert_eq!(answers[1]["assignment"]["C0"], serde_json::json!([["t0", 0], ["t0", 1]]));
        assert_eq!(answers[2]["error"], "line 5 is longer than 200 bytes (the batch line limit); skipped unread");
        assert_eq!(answers[3]["id"], 1);
        assert_eq!(answers[3]["error"], serde_json::Value::Null);
    }

    #[test]
    fn repeated_keys_and_unknown_fields_are_refused() {
        let lines = [
            r#"{"id":"a","strategy":"range","strategy":"sticky","topics":{"t0":2},"members":[]}"#,
            r#"{"id":"b","strategy":"range","topics":{"t0":3,"t0":5},"members":[]}"#,
            r#"{"id":"c","strategy":"range","topics":{"t0":2},"partition_racks":{"t0":[["a"],["b"]],"t0":[["a"],["a"]]},"members":[]}"#,
            r#"{"id":"d","strategy":"sticky","topics":{"t0":2},"members":[{"id":"C0","topics":["t0"],"owend":[["t0",0]]}]}"#,
            r#"{"id":"e","strategy":"range","topics":{"t0":2},"members":[],"extra":true}"#,
            r#"[null,"range",{"t0":2},{},[]]"#,
        ];
        let answers = batch(lines.join("\n").as_bytes(), MAX_LINE);
        let errors: Vec<&str> = answers.iter().map(|a| a["error"].as_str().unwrap_or_default()).collect();
        assert_eq!(
            errors,
            [
                "not a group snapshot: duplicate field `strategy` at line 1 column 39",
                "not a group snapshot: duplicate key \"t0\" at line 1 column 50",
                "not a group snapshot: duplicate key \"t0\" at line 1 column 89",
                "not a group snapshot: unknown field `owend`, expected one of `id`, `instance_id`, `rack`, `topics`, `owned`, `generation` at line 1 column 93",
                "not a group snapshot: unknown field `extra`, expected one of `id`, `protocol`, `strategy`, `topics`, `partition_racks`, `members` at line 1 column 67",
                "not a group snapshot: a snapshot is a JSON object",
            ]
        );
        // The id is still echoed where it can be read.
        let ids: Vec<Value> = answers.iter().map(|a| a["id"].clone()).collect();
        assert_eq!(ids, ["a", "b", "c", "d", "e", "null"].map(|id| if id == "null" { Value::Null } else { id.into() }));
    }

    #[test]
    fn item_and_member_limits_refuse_a_line_early() {
        let limit = scenario::validate::MAX_SNAPSHOT_MEMBERS;
        let members: Vec<String> = (0..=limit).map(|i| format!(r#"{{"id":"{i}"}}"#)).collect();
        let line = format!(r#"{{"strategy":"range","topics":{{}},"members":[{}]}}"#, members.join(","));
        let commas =
            format!(r#"{{"strategy":"range","topics":{{}},"members":[],"id":[{}]}}"#, "0,".repeat(MAX_ITEMS + 1));
        let answers = batch(format!("{line}\n{commas}\n").as_bytes(), MAX_LINE);
        let error = answers[0]["error"].as_str().unwrap_or_default();
        assert!(error.starts_with("not a group snapshot: more than 100000 members at line 1"), "{error}");
        assert_eq!(answers[1]["error"], "line 2 has more than 6000000 items (the batch limit); not read");
    }

    #[test]
    fn pairs_name_every_partition_whatever_the_order_of_its_topics() {
        let (t0, t1, copy): (Arc<str>, Arc<str>, Arc<str>) = ("t0".into(), "t\"1".into(), "t0".into());
        let tp = |topic: &Arc<str>, partition| TopicPartition { topic: Arc::clone(topic), partition };
        let list = [tp(&t0, 0), tp(&t1, 0), tp(&t1, 1), tp(&t0, 1), tp(&copy, 2), tp(&"x".into(), 3), tp(&t1, 2)];
        let mut pairs = Pairs::new(["t0", "t\"1"].into_iter());
        let mut output = Vec::new();
        for _ in 0..2 {
            pairs.write(&mut output, &list).unwrap_or_else(|e| panic!("{e}"));
        }
        let once = r#"[["t0",0],["t\"1",0],["t\"1",1],["t0",1],["t0",2],["x",3],["t\"1",2]]"#;
        assert_eq!(String::from_utf8_lossy(&output), once.repeat(2));
    }

    #[test]
    fn ids_come_back_verbatim_and_names_with_escapes_are_read() {
        let line = r#"{"id":{"run":[1, 2.50]},"strategy":"roundrobin","topics":{"t\u0030":1},"members":[{"id":"C\"0","topics":["t0"]}]}"#;
        let mut output = Vec::new();
        run_with_limit(line.as_bytes(), &mut output, MAX_LINE).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            String::from_utf8_lossy(&output),
            "{\"id\":{\"run\":[1, 2.50]},\"assignment\":{\"C\\\"0\":[[\"t0\",0]]},\"error\":null}\n"
        );
    }
}
