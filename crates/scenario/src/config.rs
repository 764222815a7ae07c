//! Leaving with the configuration: for the strategy a person picks, the exact settings of each
//! client (Java, Spring Boot, librdkafka, franz-go) with a link to its documentation, and the safe
//! path from the group's current `partition.assignment.strategy` lists to the new one, step by
//! step, with what the coordinator does at each step ([`assignor::protocol::select`]).
//!
//! ```
//! use scenario::config::{settings, Client, Target};
//!
//! let target: Target = "cooperative-sticky".parse().unwrap();
//! let java = settings(target).into_iter().find(|s| s.client == Client::Java).unwrap();
//! assert_eq!(java.lines, ["partition.assignment.strategy=org.apache.kafka.clients.consumer.CooperativeStickyAssignor"]);
//! ```

use std::fmt;
use std::str::FromStr;

/// The group coordinator's assignors for the consumer protocol (`group.remote.assignor`): the core's.
pub use assignor::consumer_group::ServerAssignor;
use assignor::protocol::{self, RebalanceProtocol, Selection};
use assignor::Strategy;

use crate::strategy_id::{StrategyId, UnknownStrategy};

/// What the group should run: a classic client-side strategy, or the consumer protocol (KIP-848)
/// with a server-side assignor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// `partition.assignment.strategy` on the classic protocol.
    Classic(Strategy),
    /// `group.protocol=consumer` with `group.remote.assignor`.
    Consumer(ServerAssignor),
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Classic(strategy) => write!(f, "{strategy} (classic protocol)"),
            Target::Consumer(assignor) => write!(f, "{} (consumer protocol, KIP-848)", assignor.name()),
        }
    }
}

/// Why a strategy name is not one we can configure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownTarget(pub String);

impl fmt::Display for UnknownTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        UnknownStrategy(self.0.clone()).fmt(f)
    }
}

impl std::error::Error for UnknownTarget {}

impl FromStr for Target {
    type Err = UnknownTarget;

    /// As a [`StrategyId`] reads it: a classic strategy by protocol or class name; `uniform` and
    /// `consumer-range` (or `consumer:range`) for the consumer protocol's server-side assignors.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.parse::<StrategyId>().map_err(|UnknownStrategy(name)| UnknownTarget(name))? {
            StrategyId::Classic(strategy) => Ok(Target::Classic(strategy)),
            StrategyId::Server(assignor) => Ok(Target::Consumer(assignor)),
        }
    }
}

/// The clients whose settings we give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Client {
    /// The Java `KafkaConsumer` (consumer properties).
    Java,
    /// Spring Boot's `application.properties` (Spring for Apache Kafka).
    SpringBoot,
    /// librdkafka and the clients built on it (confluent-kafka-python, -go, -dotnet, rdkafka).
    Librdkafka,
    /// franz-go's `kgo` options.
    FranzGo,
}

impl Client {
    /// Every client, in the order their settings are shown.
    pub const ALL: [Client; 4] = [Client::Java, Client::SpringBoot, Client::Librdkafka, Client::FranzGo];

    /// The client's name, with the clients built on it.
    pub fn name(self) -> &'static str {
        match self {
            Client::Java => "Java (KafkaConsumer)",
            Client::SpringBoot => "Spring Boot",
            Client::Librdkafka => "librdkafka (confluent-kafka-python/-go/-dotnet, rdkafka)",
            Client::FranzGo => "franz-go",
        }
    }
}

/// One client's settings for a target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Whose settings these are.
    pub client: Client,
    /// What to paste, one setting (or call) per line; empty when the client cannot do it.
    pub lines: Vec<String>,
    /// The client's documentation of these settings.
    pub docs: &'static str,
    /// What else to know (a limit of the client, a version it needs).
    pub note: Option<String>,
}

const JAVA_DOCS: &str = "https://kafka.apache.org/documentation/#consumerconfigs_partition.assignment.strategy";
const JAVA_PROTOCOL_DOCS: &str = "https://kafka.apache.org/documentation/#consumerconfigs_group.protocol";
const SPRING_DOCS: &str = "https://docs.spring.io/spring-boot/appendix/application-properties/index.html#application-properties.integration.spring.kafka.consumer.properties";
const LIBRDKAFKA_DOCS: &str = "https://github.com/confluentinc/librdkafka/blob/master/CONFIGURATION.md";
const FRANZ_DOCS: &str = "https://pkg.go.dev/github.com/twmb/franz-go/pkg/kgo#Balancers";

/// Each client's settings for `target`, in [`Client::ALL`] order.
pub fn settings(target: Target) -> Vec<Settings> {
    Client::ALL.iter().map(|&client| client_settings(client, target)).collect()
}

fn client_settings(client: Client, target: Target) -> Settings {
    let settings =
        |lines: Vec<String>, docs, note: Option<&str>| Settings { client, lines, docs, note: note.map(str::to_string) };
    match (client, target) {
        (Client::Java, Target::Classic(s)) => {
            settings(vec![format!("partition.assignment.strategy={}", s.class_name())], JAVA_DOCS, None)
        }
        (Client::SpringBoot, Target::Classic(s)) => settings(
            vec![format!("spring.kafka.consumer.properties.partition.assignment.strategy={}", s.class_name())],
            SPRING_DOCS,
            None,
        ),
        (Client::Librdkafka, Target::Classic(Strategy::Sticky)) => settings(
            Vec::new(),
            LIBRDKAFKA_DOCS,
            Some("librdkafka has no eager sticky assignor (it offers range, roundrobin and cooperative-sticky)"),
        ),
        (Client::Librdkafka, Target::Classic(s)) => settings(
            vec![format!("partition.assignment.strategy={}", s.name())],
            LIBRDKAFKA_DOCS,
            Some("librdkafka refuses a list that mixes cooperative and eager strategies"),
        ),
        (Client::FranzGo, Target::Classic(s)) => {
            let balancer = match s {
                Strategy::Range => "RangeBalancer",
                Strategy::RoundRobin => "RoundRobinBalancer",
                Strategy::Sticky => "StickyBalancer",
                Strategy::CooperativeSticky => "CooperativeStickyBalancer",
            };
            let note = (s != Strategy::CooperativeSticky)
                .then_some("franz-go's default is kgo.CooperativeStickyBalancer(); set Balancers to change it");
            settings(vec![format!("kgo.Balancers(kgo.{balancer}())")], FRANZ_DOCS, note)
        }
        (Client::Java, Target::Consumer(a)) => settings(
            vec!["group.protocol=consumer".into(), format!("group.remote.assignor={}", a.name())],
            JAVA_PROTOCOL_DOCS,
            Some("Java client 4.0+ against 4.0+ brokers; partition.assignment.strategy is not allowed with it"),
        ),
        (Client::SpringBoot, Target::Consumer(a)) => settings(
            vec![
                "spring.kafka.consumer.properties.group.protocol=consumer".into(),
                format!("spring.kafka.consumer.properties.group.remote.assignor={}", a.name()),
            ],
            SPRING_DOCS,
            Some("remove spring.kafka.consumer.properties.partition.assignment.strategy"),
        ),
        (Client::Librdkafka, Target::Consumer(a)) => settings(
            vec!["group.protocol=consumer".into(), format!("group.remote.assignor={}", a.name())],
            LIBRDKAFKA_DOCS,
            Some("partition.assignment.strategy is not supported with group.protocol=consumer"),
        ),
        (Client::FranzGo, Target::Consumer(a)) => {
            let balancer = match a {
                ServerAssignor::Uniform => "CooperativeStickyBalancer",
                ServerAssignor::Range => "RangeBalancer",
            };
            settings(
                vec![format!("kgo.Balancers(kgo.{balancer}())")],
                FRANZ_DOCS,
                Some(
                    "franz-go asks the broker for uniform when its first balancer is a sticky one and range for \
                     RangeBalancer, and uses the consumer protocol only when opted in (beta) with brokers 4.0+",
                ),
            )
        }
    }
}

/// One step of a migration: the strategy lists at that point and what the coordinator does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Which step: `Today`, a bounce midway, a bounce done.
    pub title: String,
    /// Each member's `partition.assignment.strategy`, in JoinGroup order.
    pub lists: Vec<(String, Vec<Strategy>)>,
    /// The coordinator's choice for those lists.
    pub selection: Selection,
    /// What the group does, in a sentence.
    pub outcome: String,
}

/// A way from the current lists to `target`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Migration {
    /// From today to every member listing only the target, in order.
    pub steps: Vec<Step>,
    /// The one-bounce shortcut and where it breaks, when it does.
    pub trap: Option<Step>,
    /// Why librdkafka clients cannot take these steps, when they cannot.
    pub librdkafka: Option<String>,
}

/// How a migration's sentences name a list of consumers: `kap config` names every one; the page,
/// which shows groups of thousands, names the first few of a long list and counts the others (a
/// midway bounce of 2,000 consumers would name 1,000).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Naming {
    /// Every consumer, by id.
    Every,
    /// Up to [`Naming::MOST`] by id; beyond, the first [`Naming::FIRST`] and how many others.
    Few,
}

impl Naming {
    /// The longest list [`Naming::Few`] names whole.
    pub const MOST: usize = 10;
    /// How many of a longer list it still names.
    pub const FIRST: usize = 3;

    /// `ids`, joined as the sentences name them.
    fn list(self, ids: &[&str]) -> String {
        match ids.split_at_checked(Self::FIRST) {
            Some((first, rest)) if self == Naming::Few && ids.len() > Self::MOST => {
                format!("{} and {} others", first.join(", "), rest.len())
            }
            _ => ids.join(", "),
        }
    }
}

/// The safe path from `current` (each member's list, in JoinGroup order) to every member listing
/// only `target`: a first rolling bounce that puts `target` first and keeps the old strategies, so
/// every member always shares one with the others; a second that removes them (KIP-429's upgrade
/// path). Midway through a bounce, the bounced members rejoin after the others. The sentences name
/// consumers as `naming` says.
pub fn migration(current: &[(String, Vec<Strategy>)], target: Strategy, naming: Naming) -> Migration {
    let done: Vec<Strategy> = vec![target];
    let both = |list: &[Strategy]| -> Vec<Strategy> {
        let mut out = vec![target];
        out.extend(list.iter().copied().filter(|&s| s != target));
        out
    };
    let step = |title: String, lists: Vec<(String, Vec<Strategy>)>| step(title, lists, naming);
    let mut steps = vec![step("Today".to_string(), current.to_vec())];
    if current.iter().all(|(_, list)| *list == done) {
        return Migration { steps, trap: None, librdkafka: None };
    }
    // Lists that already name the target (3.0+'s default [range, cooperative-sticky]) need no first bounce.
    let first: Vec<(String, Vec<Strategy>)> = if current.iter().all(|(_, list)| list.contains(&target)) {
        current.to_vec()
    } else {
        current.iter().map(|(id, list)| (id.clone(), both(list))).collect()
    };
    let half = current.len().div_ceil(2);
    let midway = |from: &[(String, Vec<Strategy>)], to: &[(String, Vec<Strategy>)]| {
        // The first `half` members have restarted with the new list and rejoined last.
        let mut lists: Vec<(String, Vec<Strategy>)> = from[half..].to_vec();
        lists.extend(to[..half].iter().cloned());
        lists
    };
    let bounced = |n: usize| -> String {
        let names: Vec<&str> = current.iter().take(n).map(|(id, _)| id.as_str()).collect();
        naming.list(&names)
    };
    // With one consumer there is no midway: a bounce is one restart.
    let midways = current.len() > 1;
    if first != current {
        let listed = list_name(&both(current.first().map(|(_, l)| l.as_slice()).unwrap_or_default()));
        if midways {
            steps.push(step(
                format!("First rolling bounce to {listed}, midway ({} restarted)", bounced(half)),
                midway(current, &first),
            ));
        }
        steps.push(step(format!("After the first rolling bounce: every member lists {listed}"), first.clone()));
    }
    let last: Vec<(String, Vec<Strategy>)> = current.iter().map(|(id, _)| (id.clone(), done.clone())).collect();
    if midways {
        steps.push(step(
            format!("Second rolling bounce to {}, midway ({} restarted)", list_name(&done), bounced(half)),
            midway(&first, &last),
        ));
    }
    steps.push(step(format!("After the second rolling bounce: every member lists {}", list_name(&done)), last.clone()));
    let trap = step(
        format!("The trap, one rolling bounce straight to {}, midway ({} restarted)", list_name(&done), bounced(half)),
        midway(current, &last),
    );
    let trap = (midways && !trap.selection.rejected.is_empty()).then_some(trap);
    let librdkafka = librdkafka_caveat(&steps);
    Migration { steps, trap, librdkafka }
}

/// librdkafka refuses a list that mixes cooperative and eager strategies (its CONFIGURATION.md),
/// so a path through such lists is closed to it.
fn librdkafka_caveat(steps: &[Step]) -> Option<String> {
    let mixed = steps.iter().flat_map(|step| &step.lists).any(|(_, list)| {
        list.contains(&Strategy::CooperativeSticky) && list.iter().any(|s| *s != Strategy::CooperativeSticky)
    });
    mixed.then(|| {
        "librdkafka clients cannot take this path: they refuse a list mixing cooperative-sticky with an eager \
         strategy; stop every consumer and start them all on the new list, or move to the consumer protocol"
            .to_string()
    })
}

fn list_name(list: &[Strategy]) -> String {
    let names: Vec<&str> = list.iter().map(|s| s.name()).collect();
    format!("[{}]", names.join(", "))
}

fn step(title: String, lists: Vec<(String, Vec<Strategy>)>, naming: Naming) -> Step {
    let selection = protocol::select(&lists);
    let outcome = outcome(&selection, naming);
    Step { title, lists, selection, outcome }
}

/// What the coordinator's choice means for the group.
fn outcome(selection: &Selection, naming: Naming) -> String {
    let Some(strategy) = selection.strategy else {
        return "no member can join".to_string();
    };
    let eager: Vec<&str> =
        selection.protocols.iter().filter(|(_, p)| *p == RebalanceProtocol::Eager).map(|(id, _)| id.as_str()).collect();
    let mut text = if eager.len() == selection.protocols.len() {
        format!("the group uses {strategy} and rebalances EAGER: every rebalance stops every partition")
    } else if eager.is_empty() {
        format!("the group uses {strategy} and rebalances COOPERATIVE: only the partitions that move stop")
    } else {
        let (list, give) = if eager.len() == 1 { ("lists", "gives") } else { ("list", "give") };
        format!(
            "the group uses {strategy}; {} still {list} an eager-only strategy and {give} up all its partitions at \
             every rebalance, the others only those that move",
            naming.list(&eager)
        )
    };
    if !selection.rejected.is_empty() {
        let refused: Vec<&str> = selection.rejected.iter().map(|(id, _)| id.as_str()).collect();
        let (share, are) = if refused.len() == 1 { ("shares", "is") } else { ("share", "are") };
        text.push_str(&format!(
            "; {} {share} no strategy with the group and {are} refused (INCONSISTENT_GROUP_PROTOCOL): consuming \
             nothing, while the others carry all the partitions",
            naming.list(&refused)
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use Strategy::*;

    fn group(lists: &[&[Strategy]]) -> Vec<(String, Vec<Strategy>)> {
        lists.iter().enumerate().map(|(i, l)| (format!("C{i}"), l.to_vec())).collect()
    }

    #[test]
    fn names_parse() {
        assert_eq!("uniform".parse(), Ok(Target::Consumer(ServerAssignor::Uniform)));
        assert_eq!("consumer-range".parse(), Ok(Target::Consumer(ServerAssignor::Range)));
        assert_eq!("range".parse(), Ok(Target::Classic(Range)));
        assert_eq!("StickyAssignor".parse(), Ok(Target::Classic(Sticky)));
        assert!("fair".parse::<Target>().is_err());
    }

    #[test]
    fn from_range_to_cooperative_sticky_takes_two_bounces() {
        let m = migration(&group(&[&[Range], &[Range], &[Range]]), CooperativeSticky, Naming::Every);
        let seen: Vec<(Option<Strategy>, Option<RebalanceProtocol>, usize)> = m
            .steps
            .iter()
            .map(|s| (s.selection.strategy, s.selection.group_protocol(), s.selection.rejected.len()))
            .collect();
        use RebalanceProtocol::*;
        assert_eq!(
            seen,
            [
                (Some(Range), Some(Eager), 0),             // today
                (Some(Range), Some(Eager), 0),             // midway: range is the only common strategy
                (Some(CooperativeSticky), Some(Eager), 0), // all list both: cooperative-sticky wins, still eager
                (Some(CooperativeSticky), Some(Eager), 0), // midway: the unbounced still list range
                (Some(CooperativeSticky), Some(Cooperative), 0),
            ]
        );
        let trap = m.trap.expect("one bounce refuses members");
        assert_eq!(trap.selection.rejected.iter().map(|(id, _)| id.as_str()).collect::<Vec<_>>(), ["C0", "C1"]);
        assert!(trap.outcome.contains("C0, C1 share no strategy with the group and are refused"), "{}", trap.outcome);
    }

    #[test]
    fn kafka_3_default_needs_one_bounce() {
        // [range, cooperative-sticky] already lists the target: only the removal bounce is left.
        let m = migration(
            &group(&[&[Range, CooperativeSticky], &[Range, CooperativeSticky]]),
            CooperativeSticky,
            Naming::Every,
        );
        let protocols: Vec<_> = m.steps.iter().map(|s| (s.selection.strategy, s.selection.group_protocol())).collect();
        use RebalanceProtocol::*;
        assert_eq!(
            protocols,
            [
                (Some(Range), Some(Eager)),
                (Some(CooperativeSticky), Some(Eager)),
                (Some(CooperativeSticky), Some(Cooperative))
            ]
        );
        assert!(m.trap.is_none(), "the old lists already share cooperative-sticky");
        let done = migration(&group(&[&[CooperativeSticky]]), CooperativeSticky, Naming::Every);
        assert_eq!(done.steps.len(), 1);
        // One consumer: each bounce is one restart, nothing happens midway.
        let alone = migration(&group(&[&[Range]]), CooperativeSticky, Naming::Every);
        let titles: Vec<&str> = alone.steps.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "Today",
                "After the first rolling bounce: every member lists [cooperative-sticky, range]",
                "After the second rolling bounce: every member lists [cooperative-sticky]"
            ]
        );
        assert!(alone.trap.is_none());
    }

    /// `n` consumers C0… all listing `list`.
    fn alike(n: usize, list: &[Strategy]) -> Vec<(String, Vec<Strategy>)> {
        group(&vec![list; n])
    }

    #[test]
    fn a_long_list_of_consumers_names_three_and_counts_the_others() {
        let migration = migration(&alike(30, &[Range]), CooperativeSticky, Naming::Few);
        let titles: Vec<&str> = migration.steps.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "Today",
                "First rolling bounce to [cooperative-sticky, range], midway (C0, C1, C2 and 12 others restarted)",
                "After the first rolling bounce: every member lists [cooperative-sticky, range]",
                "Second rolling bounce to [cooperative-sticky], midway (C0, C1, C2 and 12 others restarted)",
                "After the second rolling bounce: every member lists [cooperative-sticky]",
            ]
        );
        // Midway through the second bounce, the fifteen not yet restarted still list range too.
        assert!(
            migration.steps[3].outcome.contains("; C15, C16, C17 and 12 others still list an eager-only strategy"),
            "{}",
            migration.steps[3].outcome
        );
        // The trap: one bounce straight to the target refuses the half on the other list.
        let trap = migration.trap.unwrap_or_else(|| panic!("no trap"));
        assert!(trap.title.ends_with("midway (C0, C1, C2 and 12 others restarted)"), "{}", trap.title);
        assert!(trap.outcome.contains(" and 12 others share no strategy with the group"), "{}", trap.outcome);
        let named = |text: &str| (3..30).filter(|i| text.contains(&format!("C{i},"))).count();
        assert!(migration.steps.iter().chain([&trap]).all(|s| named(&s.title) + named(&s.outcome) <= 2));
    }

    #[test]
    fn ten_consumers_or_fewer_are_all_named() {
        for n in [1, 2, 6, 20] {
            let full = migration(&alike(n, &[Range]), CooperativeSticky, Naming::Every);
            assert_eq!(migration(&alike(n, &[Range]), CooperativeSticky, Naming::Few), full, "{n} consumers");
        }
    }

    #[test]
    fn librdkafka_has_no_eager_sticky() {
        let librdkafka = settings(Target::Classic(Sticky)).into_iter().find(|s| s.client == Client::Librdkafka);
        assert_eq!(librdkafka.map(|s| s.lines), Some(Vec::new()));
    }
}
