//! The demo group the page assigns, and each strategy's result in the shape the page shows.

use assignor::{Group, Member, Strategy, Topic};

/// The most partitions the page lets topic `t0` have (every one is drawn as a chip).
pub const MAX_T0_PARTITIONS: u32 = 256;

/// Two topics, `t0` (`t0_partitions` partitions) and `t1` (3), and consumers `C0` and `C1`
/// subscribed to both.
pub fn group(t0_partitions: u32) -> Group {
    let member = |id: &str| Member { id: id.into(), topics: vec!["t0".into(), "t1".into()], ..Member::default() };
    Group {
        topics: vec![Topic::new("t0", t0_partitions), Topic::new("t1", 3)],
        members: vec![member("C0"), member("C1")],
    }
}

/// One member's row: its id and its partitions as Kafka prints them (`t0-1`), in Kafka's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub member: String,
    pub partitions: Vec<String>,
}

/// What one strategy gives for a group: a row per member, or the error text.
pub fn outcome(strategy: Strategy, group: &Group) -> Result<Vec<Row>, String> {
    let assignment = assignor::assign(strategy, group).map_err(|e| e.to_string())?;
    Ok(assignment
        .members
        .into_iter()
        .map(|(member, tps)| Row { member, partitions: tps.iter().map(ToString::to_string).collect() })
        .collect())
}

/// Reads the partition count typed in the input; `None` unless it is a whole number in range.
pub fn parse_partitions(text: &str) -> Option<u32> {
    text.trim().parse().ok().filter(|n| *n <= MAX_T0_PARTITIONS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(member: &str, partitions: &[&str]) -> Row {
        Row { member: member.into(), partitions: partitions.iter().map(|p| p.to_string()).collect() }
    }

    #[test]
    fn range_splits_each_topic() {
        let rows = outcome(Strategy::Range, &group(3)).unwrap();
        assert_eq!(rows, [row("C0", &["t0-0", "t0-1", "t1-0", "t1-1"]), row("C1", &["t0-2", "t1-2"])]);
    }

    #[test]
    fn roundrobin_deals_all_partitions_in_turn() {
        let rows = outcome(Strategy::RoundRobin, &group(3)).unwrap();
        assert_eq!(rows, [row("C0", &["t0-0", "t0-2", "t1-1"]), row("C1", &["t0-1", "t1-0", "t1-2"])]);
    }

    #[test]
    fn every_strategy_gives_rows_or_an_error_text() {
        for strategy in Strategy::ALL {
            match outcome(strategy, &group(5)) {
                Ok(rows) => assert_eq!(rows.iter().map(|r| r.partitions.len()).sum::<usize>(), 8),
                Err(text) => assert!(!text.is_empty()),
            }
        }
    }

    #[test]
    fn partition_count_input() {
        assert_eq!(parse_partitions(" 7 "), Some(7));
        assert_eq!(parse_partitions("0"), Some(0));
        assert_eq!(parse_partitions("-1"), None);
        assert_eq!(parse_partitions("x"), None);
        assert_eq!(parse_partitions(&(MAX_T0_PARTITIONS + 1).to_string()), None);
    }
}
