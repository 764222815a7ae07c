//! Reading the text `kafka-consumer-groups.sh --describe` prints, line by line, into what each
//! group's tables say. Nothing here decides what the group is; `build` does.
//!
//! The tool pads every column but the last to the widest value (`%-Ns`, one space between
//! columns), so a row is read against its header's column positions. Where a value is wider than
//! its column (a 19-digit offset, `PreparingRebalance` in a 15-wide STATE, the GROUP column that
//! 2.3–3.9 size by the coordinator's width), every later column shifts right by the overflow, and
//! the reader follows the shift. A column can be blank (GROUP-INSTANCE-ID of a dynamic member, the
//! ASSIGNMENT-STRATEGY of an empty group before 4.0); a value can hold spaces (the ASSIGNMENT list
//! `t(0,1), u(2)`, the coordinator `host:9092 (1)`).

use std::collections::HashMap;

use super::{Assignment, Line, Unread};

/// One row of `--describe` (`--offsets`): a partition with its offsets and owner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionRow {
    /// Where the row is in the paste.
    pub line: Line,
    /// TOPIC.
    pub topic: String,
    /// PARTITION.
    pub partition: u32,
    /// CURRENT-OFFSET, the committed offset (`-`: none).
    pub current_offset: Option<i64>,
    /// LOG-END-OFFSET (`-`: unknown).
    pub log_end_offset: Option<i64>,
    /// LAG, messages behind (`-`: no committed offset).
    pub lag: Option<i64>,
    /// `None` for a partition with a committed offset and no owner (`-`).
    pub consumer_id: Option<String>,
}

/// One row of `--describe --members`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberRow {
    /// Where the row is in the paste.
    pub line: Line,
    /// CONSUMER-ID, the `member.id`.
    pub consumer_id: String,
    /// Blank for a dynamic member; absent before 2.6 (the column is not printed).
    pub instance_id: Option<String>,
    /// CLIENT-ID.
    pub client_id: String,
    /// #PARTITIONS.
    pub partitions: u32,
    /// With `--verbose`: ASSIGNMENT (classic tool) or CURRENT-ASSIGNMENT (4.0+).
    pub assignment: Option<Assignment>,
    /// 4.0+ with `--verbose`: TARGET-ASSIGNMENT.
    pub target: Option<Assignment>,
    /// 4.0+ with `--verbose`: CURRENT-EPOCH, a number only for members of a consumer-protocol group.
    pub epoch: Option<i32>,
}

/// The row of `--describe --state`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateRow {
    /// Where the row is in the paste.
    pub line: Line,
    /// ASSIGNMENT-STRATEGY; `None` when blank or `-` (an empty group).
    pub strategy: Option<String>,
    /// STATE (`Stable`, `Empty`, `PreparingRebalance`, ...).
    pub state: String,
    /// #MEMBERS.
    pub members: u32,
    /// 4.0+ with `--verbose`: GROUP-EPOCH, a number only for consumer-protocol groups.
    pub group_epoch: Option<i32>,
}

/// Everything the text says about one group, in the order it said it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupText {
    /// Empty when the tool did not print it (2.0–2.2 print no GROUP column) and nothing else named it.
    pub name: String,
    /// Its `--describe` rows.
    pub partitions: Vec<PartitionRow>,
    /// Consumers `--describe` lists with `-` for topic and partition: members without partitions
    /// (no tool since 1.1 prints them there, but a row of dashes names one all the same).
    pub idle: Vec<String>,
    /// Its `--members` rows.
    pub members: Vec<MemberRow>,
    /// Its `--state` row.
    pub state: Option<StateRow>,
    /// "has no active members", "is rebalancing", "does not exist", with their line.
    pub messages: Vec<(Line, GroupMessage)>,
    /// Rows the terminal had wrapped onto the next line, read as one: the first line of each.
    pub wrapped: Vec<Line>,
}

/// A message the tool prints about a group instead of (or before) its tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupMessage {
    /// `Consumer group 'x' has no active members.` (the group is Empty).
    NoActiveMembers,
    /// `Warning: Consumer group 'x' is rebalancing.`
    Rebalancing,
    /// `Error: Consumer group 'x' does not exist.`
    DoesNotExist,
}

/// The whole text: its groups in the order they first appear, and the lines nobody could read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Text {
    /// The groups, in the order the paste first names them.
    pub groups: Vec<GroupText>,
    /// The lines that could not be read, in order.
    pub unread: Vec<Unread>,
    /// Columns a header named that this reader does not know (a newer tool); their values are skipped.
    pub unknown_columns: Vec<(Line, String)>,
    /// Each group's place in `groups`, by name.
    index: HashMap<String, usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Offsets,
    Members,
    State,
}

/// A column of a header: its label and where it starts (in characters).
#[derive(Clone, Debug)]
struct Column {
    label: String,
    start: usize,
}

const KNOWN_COLUMNS: &[&str] = &[
    "GROUP",
    "TOPIC",
    "PARTITION",
    "LEADER-EPOCH",
    "CURRENT-OFFSET",
    "LOG-END-OFFSET",
    "LAG",
    "CONSUMER-ID",
    "HOST",
    "CLIENT-ID",
    "GROUP-INSTANCE-ID",
    "#PARTITIONS",
    "ASSIGNMENT",
    "CURRENT-EPOCH",
    "CURRENT-ASSIGNMENT",
    "TARGET-EPOCH",
    "TARGET-ASSIGNMENT",
    "UPGRADED",
    "COORDINATOR (ID)",
    "ASSIGNMENT-STRATEGY",
    "STATE",
    "GROUP-EPOCH",
    "TARGET-ASSIGNMENT-EPOCH",
    "#MEMBERS",
];

/// Reads `text`. Never fails: whatever it cannot read is in [`Text::unread`] with its line number.
pub fn read(text: &str) -> Text {
    let mut out = Text::default();
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    let mut table: Option<Table> = None;
    // 2.0–2.2 print no GROUP column; the command line's `--group` (or a message) names the group.
    let mut named_group = String::new();
    let mut index = 0;
    while let Some(&content) = lines.get(index) {
        let line = Line(index + 1);
        index += 1;
        if content.trim().is_empty() {
            table = None;
            continue;
        }
        if let Some((kind, columns)) = header(content) {
            for column in columns.iter().filter(|c| !KNOWN_COLUMNS.contains(&c.label.as_str())) {
                out.unknown_columns.push((line, column.label.clone()));
            }
            table = Some(Table { kind, columns, header: line });
            continue;
        }
        if let Some(group) = command_group(content) {
            named_group = group;
            table = None;
            continue;
        }
        if let Some((message, group)) = group_message(content) {
            named_group = group.clone();
            out.group(&group).messages.push((line, message));
            table = None;
            continue;
        }
        let Some(current) = &table else {
            out.unread.push(Unread::new(line, content, "not part of a kafka-consumer-groups.sh --describe table"));
            continue;
        };
        match current.row(line, content, &named_group) {
            Ok((group, row)) => out.add(&group, row),
            Err(reason) => {
                // A terminal narrower than the table wraps a row onto the next line.
                let next = lines.get(index).copied().filter(|n| !n.trim().is_empty() && header(n).is_none());
                let joined = next.map(|next| format!("{content}{next}"));
                match joined.map(|j| current.row(line, &j, &named_group)) {
                    Some(Ok((group, row))) => {
                        out.group(&group).wrapped.push(line);
                        out.add(&group, row);
                        index += 1;
                    }
                    _ => out.unread.push(Unread::new(
                        line,
                        content,
                        &format!(
                            "a row of the {} table ({}) that cannot be read: {reason}",
                            current.kind.name(),
                            current.header
                        ),
                    )),
                }
            }
        }
    }
    out
}

/// The table being read: its kind, columns, and the line of its header.
struct Table {
    kind: Kind,
    columns: Vec<Column>,
    header: Line,
}

enum Row {
    Partition(PartitionRow),
    Idle(String),
    Member(MemberRow),
    State(StateRow),
}

impl Table {
    /// One row and the group it belongs to.
    fn row(&self, line: Line, content: &str, named_group: &str) -> Result<(String, Row), String> {
        let cells = cells(content, &self.columns);
        let group = cells.get("GROUP").map(str::to_string).unwrap_or_else(|| named_group.to_string());
        let row = match self.kind {
            Kind::Offsets if cells.get("TOPIC") == Some("-") && cells.get("PARTITION") == Some("-") => {
                Row::Idle(cells.required("CONSUMER-ID")?.to_string())
            }
            Kind::Offsets => Row::Partition(partition_row(line, &cells)?),
            Kind::Members => Row::Member(member_row(line, &cells)?),
            Kind::State => Row::State(state_row(line, &cells)?),
        };
        Ok((group, row))
    }
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Offsets => "--describe",
            Kind::Members => "--members",
            Kind::State => "--state",
        }
    }
}

impl Text {
    fn add(&mut self, group: &str, row: Row) {
        let group = self.group(group);
        match row {
            Row::Partition(row) => group.partitions.push(row),
            Row::Idle(id) if id != "-" => group.idle.push(id),
            Row::Idle(_) => {}
            Row::Member(row) => group.members.push(row),
            Row::State(row) => group.state = Some(row),
        }
    }

    fn group(&mut self, name: &str) -> &mut GroupText {
        let index = match self.index.get(name) {
            Some(&index) => index,
            None => {
                self.groups.push(GroupText { name: name.to_string(), ..GroupText::default() });
                self.index.insert(name.to_string(), self.groups.len() - 1);
                self.groups.len() - 1
            }
        };
        &mut self.groups[index]
    }
}

/// The header of one of the three tables, with its columns.
fn header(line: &str) -> Option<(Kind, Vec<Column>)> {
    let columns = columns(line);
    let has = |label: &str| columns.iter().any(|c| c.label == label);
    let kind = if has("TOPIC") && has("PARTITION") && has("CONSUMER-ID") {
        Kind::Offsets
    } else if has("CONSUMER-ID") && has("#PARTITIONS") {
        Kind::Members
    } else if has("COORDINATOR (ID)") && has("ASSIGNMENT-STRATEGY") {
        Kind::State
    } else {
        return None;
    };
    Some((kind, columns))
}

/// A header's labels and where each starts; `COORDINATOR (ID)` is one label with a space.
fn columns(line: &str) -> Vec<Column> {
    let mut columns: Vec<Column> = Vec::new();
    for (start, word) in words(line) {
        match columns.last_mut() {
            Some(last) if last.label == "COORDINATOR" && word == "(ID)" => last.label.push_str(" (ID)"),
            _ => columns.push(Column { label: word.to_string(), start }),
        }
    }
    columns
}

/// The whitespace-separated words of `line` with the character position each starts at.
fn words(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (char position, byte offset)
    for (position, (byte, c)) in line.char_indices().enumerate() {
        if c.is_whitespace() {
            if let Some((position, from)) = start.take() {
                out.push((position, &line[from..byte]));
            }
        } else if start.is_none() {
            start = Some((position, byte));
        }
    }
    if let Some((position, from)) = start {
        out.push((position, &line[from..]));
    }
    out
}

/// A row cut into its header's columns (see the module doc for overflowing and blank values).
fn cells(line: &str, columns: &[Column]) -> Cells {
    let words = words(line);
    let mut values: Vec<(String, String)> = Vec::with_capacity(columns.len());
    let mut next_word = 0;
    let mut shift = 0usize;
    for (index, column) in columns.iter().enumerate() {
        let last = index + 1 == columns.len();
        let end = columns.get(index + 1).map(|c| c.start + shift);
        let mut taken: Vec<&str> = Vec::new();
        let mut taken_end = None;
        while let Some(&(start, word)) = words.get(next_word) {
            let coordinator_id =
                column.label == "COORDINATOR (ID)" && taken.len() == 1 && word.starts_with('(') && word.ends_with(')');
            let inside = last || end.is_none_or(|end| start < end) || coordinator_id;
            if !inside {
                break;
            }
            taken.push(word);
            taken_end = Some(start + word.chars().count());
            next_word += 1;
        }
        if let (Some(taken_end), Some(end)) = (taken_end, end) {
            // The value ran into the next column: everything after it moved right by as much.
            if taken_end + 1 > end {
                shift += taken_end + 1 - end;
            }
        }
        values.push((column.label.clone(), taken.join(" ")));
    }
    Cells { values }
}

/// A row's value per column label.
struct Cells {
    values: Vec<(String, String)>,
}

impl Cells {
    fn get(&self, label: &str) -> Option<&str> {
        self.values.iter().find(|(l, _)| l == label).map(|(_, v)| v.as_str())
    }

    fn required(&self, label: &str) -> Result<&str, String> {
        match self.get(label) {
            Some(value) if !value.is_empty() => Ok(value),
            _ => Err(format!("no {label}")),
        }
    }
}

/// `-` (the tool's missing value) or a number.
fn optional_number<T: std::str::FromStr>(cells: &Cells, label: &str) -> Result<Option<T>, String> {
    match cells.get(label) {
        None | Some("-") => Ok(None),
        Some(value) => value.parse().map(Some).map_err(|_| format!("{label} {value:?} is not a number")),
    }
}

fn partition_row(line: Line, cells: &Cells) -> Result<PartitionRow, String> {
    let topic = cells.required("TOPIC")?;
    if let Some(problem) = crate::validate::topic_name_problem(topic) {
        return Err(format!("TOPIC {topic:?}: {problem}"));
    }
    let partition = cells.required("PARTITION")?;
    let partition = partition.parse().map_err(|_| format!("PARTITION {partition:?} is not a partition number"))?;
    let consumer_id = cells.required("CONSUMER-ID")?;
    Ok(PartitionRow {
        line,
        topic: topic.to_string(),
        partition,
        current_offset: optional_number(cells, "CURRENT-OFFSET")?,
        log_end_offset: optional_number(cells, "LOG-END-OFFSET")?,
        lag: optional_number(cells, "LAG")?,
        consumer_id: (consumer_id != "-").then(|| consumer_id.to_string()),
    })
}

fn member_row(line: Line, cells: &Cells) -> Result<MemberRow, String> {
    let consumer_id = cells.required("CONSUMER-ID")?.to_string();
    let count = cells.required("#PARTITIONS")?;
    let partitions = count.parse().map_err(|_| format!("#PARTITIONS {count:?} is not a number"))?;
    let assignment = match cells.get("ASSIGNMENT").or_else(|| cells.get("CURRENT-ASSIGNMENT")) {
        Some(text) => Some(Assignment::parse(text).map_err(|e| format!("ASSIGNMENT {text:?}: {e}"))?),
        None => None,
    };
    let target = match cells.get("TARGET-ASSIGNMENT") {
        Some(text) => Some(Assignment::parse(text).map_err(|e| format!("TARGET-ASSIGNMENT {text:?}: {e}"))?),
        None => None,
    };
    Ok(MemberRow {
        line,
        consumer_id,
        instance_id: cells.get("GROUP-INSTANCE-ID").map(str::to_string),
        client_id: cells.get("CLIENT-ID").unwrap_or_default().to_string(),
        partitions,
        assignment,
        target,
        epoch: optional_number(cells, "CURRENT-EPOCH")?,
    })
}

/// The states `ConsumerGroupState` / `GroupState` print.
const STATES: &[&str] =
    &["Stable", "Empty", "PreparingRebalance", "CompletingRebalance", "Dead", "Assigning", "Reconciling", "Unknown"];

fn state_row(line: Line, cells: &Cells) -> Result<StateRow, String> {
    let state = cells.required("STATE")?;
    if !STATES.contains(&state) {
        return Err(format!("STATE {state:?} is not a group state"));
    }
    let count = cells.required("#MEMBERS")?;
    let members = count.parse().map_err(|_| format!("#MEMBERS {count:?} is not a number"))?;
    let strategy = cells.get("ASSIGNMENT-STRATEGY").filter(|s| !s.is_empty() && *s != "-").map(str::to_string);
    Ok(StateRow {
        line,
        strategy,
        state: state.to_string(),
        members,
        group_epoch: optional_number(cells, "GROUP-EPOCH")?,
    })
}

/// The group a pasted command line names: `kafka-consumer-groups.sh ... --group NAME`. Any pasted
/// command line is read (its group, if one).
fn command_group(line: &str) -> Option<String> {
    if !line.contains("kafka-consumer-groups") {
        return None;
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let group = words.windows(2).find(|w| w[0] == "--group").map(|w| w[1].trim_matches(['\'', '"']).to_string());
    Some(group.unwrap_or_default())
}

/// The tool's per-group messages (on stderr, or stdout for errors), with the group they name.
fn group_message(line: &str) -> Option<(GroupMessage, String)> {
    let line = line.trim();
    let quoted = |prefix: &str, suffix: &str| {
        line.strip_prefix(prefix).and_then(|rest| rest.strip_suffix(suffix)).map(str::to_string)
    };
    if let Some(group) = quoted("Consumer group '", "' has no active members.") {
        return Some((GroupMessage::NoActiveMembers, group));
    }
    if let Some(group) = quoted("Warning: Consumer group '", "' is rebalancing.") {
        return Some((GroupMessage::Rebalancing, group));
    }
    if let Some(group) = quoted("Error: Consumer group '", "' does not exist.")
        .or_else(|| quoted("Error: The consumer group '", "' does not exist."))
    {
        return Some((GroupMessage::DoesNotExist, group));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(header: &str, row: &str) -> Vec<(String, String)> {
        cells(row, &columns(header)).values
    }

    #[test]
    fn blank_columns_stay_blank() {
        let header = "GROUP CONSUMER-ID GROUP-INSTANCE-ID HOST   CLIENT-ID #PARTITIONS     ASSIGNMENT";
        let row = "g     c1                            /h     cl        0               -";
        let values = cut(header, row);
        assert_eq!(values[2], ("GROUP-INSTANCE-ID".into(), String::new()));
        assert_eq!(values[3], ("HOST".into(), "/h".into()));
        assert_eq!(values[6], ("ASSIGNMENT".into(), "-".into()));
    }

    #[test]
    fn an_overflowing_value_shifts_the_rest() {
        // 2.3–3.9 give STATE 15 characters; PreparingRebalance has 18.
        let header = "GROUP           COORDINATOR (ID)          ASSIGNMENT-STRATEGY  STATE           #MEMBERS";
        let row = "g               b:9092 (1)                                     PreparingRebalance 3";
        let values = cut(header, row);
        assert_eq!(values[1].1, "b:9092 (1)");
        assert_eq!(values[2].1, "");
        assert_eq!(values[3].1, "PreparingRebalance");
        assert_eq!(values[4].1, "3");
    }

    #[test]
    fn the_last_column_takes_the_rest_of_the_line() {
        let header = "CONSUMER-ID HOST CLIENT-ID #PARTITIONS     ASSIGNMENT";
        let row = "c1          /h   cl        3               t(0,1), u(2)";
        assert_eq!(cut(header, row)[4].1, "t(0,1), u(2)");
    }
}
