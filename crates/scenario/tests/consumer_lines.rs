//! A `kap batch` consumer-protocol line (KIP-848) opened as a file (`scenario::read_file`, what
//! `kap show`, `explain`, `link` and the page's import read): the scenario of the same rebalance,
//! whose target under the line's assignor is the line's answer, refused exactly where the line is,
//! with its message.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use assignor::consumer_group::ServerAssignor;
use proptest::prelude::*;
use scenario::consumer_snapshot::{self, ConsumerLineError};
use scenario::report::{walk, Report};
use scenario::{link, read_file, ReadError, StrategyId};
use serde_json::{json, Value};

#[test]
fn a_line_opens_as_its_scenario() {
    // "gone" was deleted: only B's current target names it.
    let line = r#"{"id":"g1","protocol":"consumer","strategy":"range",
        "topics":{"orders":4,"ads":0},
        "topic_ids":{"orders":"eZUeEuqvSSGGPuIabmBwqg","ads":"b5urPkmCSDOfZwlN8GMxUQ","gone":"o8PIcShyRL6cLz1qd5WPig"},
        "members":[{"id":"B","instance_id":"b-1","rack":"r1","topics":["orders","missing"],"owned":[["orders",3],["gone",0]]},
                   {"id":"A","topics":["orders"],"owned":[["orders",1],["orders",0]]}]}"#;
    let scenario = read_file(line).unwrap();
    let owned = json!({"A": [["orders", 1], ["orders", 0]], "B": [["orders", 3], ["gone", 0]]});
    assert_eq!(
        serde_json::from_str::<Value>(&scenario::to_json(&scenario)).unwrap(),
        json!({
            "version": 1,
            "protocol": "consumer",
            "remote_assignor": "range",
            "topics": [
                {"name": "orders", "partitions": 4, "id": "eZUeEuqvSSGGPuIabmBwqg"},
                {"name": "ads", "partitions": 0, "id": "b5urPkmCSDOfZwlN8GMxUQ"}
            ],
            "consumers": [
                {"id": "B", "instance_id": "b-1", "rack": "r1", "topics": ["orders", "missing"], "strategies": ["range"]},
                {"id": "A", "topics": ["orders"], "strategies": ["range"]}
            ],
            "previous": {"generation": 1, "assignments": {
                "consumer-range": owned, "cooperative-sticky": owned, "range": owned,
                "roundrobin": owned, "sticky": owned, "uniform": owned
            }, "deleted_topic_ids": {"gone": "o8PIcShyRL6cLz1qd5WPig"}}
        })
    );
    // The current target the coordinator starts from drops the deleted topic, as Kafka's does.
    let report = Report::new(&scenario);
    let range = report.server(ServerAssignor::Range).unwrap();
    assert_eq!(scenario::compact(&range.before["B"]), "orders:3");
    // Range is not sticky since KAFKA-16944 and deals static members first: B takes orders-0 and
    // orders-1 from A.
    assert_eq!(
        serde_json::to_value(scenario::model::lists_to_pairs(&range.target)).unwrap(),
        json!({"A": [["orders", 2], ["orders", 3]], "B": [["orders", 0], ["orders", 1]]})
    );
    assert_eq!(answer(line), Ok(json!({"B": [["orders", 0], ["orders", 1]], "A": [["orders", 2], ["orders", 3]]})));
}

/// Kafka's coordinator keeps a deleted topic's id in a member's current target (it only refreshes the
/// group's metadata when a topic goes: `GroupMetadataManager.onNewMetadataImage`), so the id reaches
/// `uniform`. F's target holds 13 topics with the deleted t10: Java's `HashMap` of it has 32
/// buckets, not the 16 of its 12 live topics, and walks them in another order when F gives up its
/// partitions over quota. Checked against Kafka's `UniformAssignor` (trunk 2024-10-25): without
/// t10's id the scenario kept t9 for F and gave t7-0 and t8 to H.
#[test]
fn a_deleted_topics_id_orders_the_members_target_as_in_kafka() {
    let line = r#"{"protocol":"consumer","strategy":"uniform",
        "topics":{"t0":3,"t1":3,"t3":1,"t4":4,"t5":3,"t6":1,"t7":2,"t8":2,"t9":3,"t11":2,"t12":1,"t13":2,"t14":1,"t15":0},
        "topic_ids":{"t0":"tao1YvIMBgfz3ezoO86jXQ","t1":"CI7A6zz-nFQKF67Nri0r4g","t2":"wGiHVYvcIIJlMwvnHiLKiQ","t3":"0HrinF2tqRQb3YINI9jBLQ","t4":"tKOQxVus-pipz05rRPk2NA","t5":"hVdaCPGcaxjHclSajfctwA","t6":"o7F4BZI2GiK9BuxqfxmSiA","t7":"k3BIQ53ji6JgqMWnN0grng","t8":"U67ZRJAX2_HIYG4CkEUtLQ","t9":"ksOKEepDCajsWg2D7SwDPw","t10":"8QTWC7GUdwJ_eB0eBZTMyw","t11":"TKUh8KGgUj7CFYifNTv9OA","t12":"aywvoQB4x2liubdXYh19oQ","t13":"Z_D5tQQltOdCFVPC0Qf54Q","t14":"RokB1tBrvAL62ATyueksVw","t15":"n3T5cYrt1TD4WHJKS1XTjQ"},
        "members":[
            {"id":"hPhHrEYRqA1ANzU9QQq4Cw","topics":["t7","t0","t11","t8","t10","t13","t14","t12","t6","t3","t1","t9","t5"],"owned":[]},
            {"id":"FODiOrdDsaFK9JfibUW5sA","topics":["t7","t0","t11","t8","t10","t13","t14","t12","t6","t3","t1","t9","t5"],"owned":[["t10",0],["t10",1],["t10",2],["t14",0],["t11",0],["t11",1],["t5",0],["t5",1],["t5",2],["t0",0],["t0",1],["t0",2],["t8",0],["t8",1],["t7",0],["t7",1],["t12",0],["t9",0],["t9",1],["t9",2],["t13",0],["t13",1],["t3",0],["t1",0],["t1",1],["t1",2],["t6",0]]}]}"#;
    let scenario = read_file(line).unwrap();
    let deleted = &scenario.previous.as_ref().unwrap().deleted_topic_ids;
    assert_eq!(deleted, &std::collections::BTreeMap::from([("t10".to_string(), "8QTWC7GUdwJ_eB0eBZTMyw".to_string())]));
    let java = json!({"hPhHrEYRqA1ANzU9QQq4Cw": [["t1", 0], ["t1", 1], ["t1", 2], ["t12", 0], ["t13", 0], ["t13", 1], ["t3", 0], ["t6", 0], ["t7", 1], ["t9", 0], ["t9", 1], ["t9", 2]], "FODiOrdDsaFK9JfibUW5sA": [["t0", 0], ["t0", 1], ["t0", 2], ["t11", 0], ["t11", 1], ["t14", 0], ["t5", 0], ["t5", 1], ["t5", 2], ["t7", 0], ["t8", 0], ["t8", 1]]});
    assert_eq!(answer(line), Ok(java.clone()));
    let report = Report::new(&scenario);
    let target = &report.server(ServerAssignor::Uniform).unwrap().target;
    assert_eq!(serde_json::to_value(scenario::model::lists_to_pairs(target)).unwrap(), java);
    // The id travels in the file and the link.
    assert_eq!(read_file(&scenario::to_json(&scenario)).unwrap(), scenario);
    assert_eq!(link::decode(&link::encode(&scenario)).unwrap(), scenario);
}

#[test]
fn uniform_is_left_out_and_an_empty_group_has_no_history() {
    let line = r#"{"protocol":"consumer","strategy":"uniform","topics":{"t":2},"topic_ids":{"t":"eZUeEuqvSSGGPuIabmBwqg"},
        "members":[{"id":"C0","topics":["t"]}]}"#;
    let scenario = read_file(line).unwrap();
    assert!(scenario.consumer_protocol());
    assert_eq!(scenario.remote_assignor, None);
    assert_eq!(scenario.consumers[0].strategies, ["cooperative-sticky"]);
    assert_eq!(scenario.previous, None);
}

#[test]
fn a_refused_line_says_what_kap_batch_says() {
    let ids = r#""topic_ids":{"a":"eZUeEuqvSSGGPuIabmBwqg"}"#;
    for (line, message) in [
        (
            r#"{"protocol":"consumer","strategy":"range","topics":{"a":1},"topic_ids":{},"members":[]}"#.to_string(),
            r#"topic_ids: no id for topic "a""#,
        ),
        (
            format!(r#"{{"protocol":"consumer","strategy":"sticky","topics":{{"a":1}},{ids},"members":[]}}"#),
            r#"strategy: unknown server assignor "sticky" (expected uniform or range)"#,
        ),
        (
            format!(r#"{{"protocol":"bogus","strategy":"uniform","topics":{{"a":1}},{ids},"members":[]}}"#),
            r#"protocol: expected "consumer", got "bogus""#,
        ),
        (
            format!(
                r#"{{"protocol":"consumer","strategy":"uniform","topics":{{"a":1}},{ids},"members":[{{"id":"A"}},{{"id":"A"}}]}}"#
            ),
            r#"members[1].id: duplicate member id "A""#,
        ),
        (
            format!(
                r#"{{"protocol":"consumer","strategy":"uniform","topics":{{"a":1}},{ids},"members":[{{"id":"A","owned":[["b",0]]}}]}}"#
            ),
            r#"members[0].owned: topic "b" has no id in topic_ids"#,
        ),
        (
            r#"{"protocol":"consumer","strategy":"range","topics":{"a b":1},"topic_ids":{"a b":"eZUeEuqvSSGGPuIabmBwqg"},"members":[]}"#.to_string(),
            r#"topics.a b: ' ' is not allowed in a topic name (letters, digits, '.', '_' and '-' are)"#,
        ),
        (
            format!(r#"{{"protocol":"consumer","strategy":"range","topics":{{"a":1}},{ids},"members":[],"group":"g"}}"#),
            "not a consumer group snapshot: unknown field `group`, expected one of `id`, `protocol`, `strategy`, \
             `topics`, `topic_ids`, `members` at line 1 column 122",
        ),
        // A ghost partition kept by uniform's homogeneous builder leaves a real one unassigned.
        (
            format!(
                r#"{{"protocol":"consumer","strategy":"uniform","topics":{{"a":3}},{ids},"members":[{{"id":"A","topics":["a"],"owned":[["a",7]]}},{{"id":"B","topics":["a"]}}]}}"#
            ),
            "PartitionAssignorException: Partitions were left unassigned",
        ),
        (
            format!(
                r#"{{"protocol":"consumer","strategy":"uniform","topics":{{"a":3}},{ids},"members":[{{"id":"A","topics":["a"],"owned":[["a",7]]}},{{"id":"B","topics":[]}}]}}"#
            ),
            "ArrayIndexOutOfBoundsException: Index 7 out of bounds for length 3",
        ),
    ] {
        assert_eq!(answer(&line).unwrap_err(), message, "{line}");
        let error = read_file(&line).unwrap_err();
        assert!(matches!(error, ReadError::ConsumerLine(_)), "{line}: {error:?}");
        assert_eq!(error.to_string(), message, "{line}");
    }
}

/// `kap batch`'s answer to `line`: the assignment, or its error.
fn answer(line: &str) -> Result<Value, String> {
    let answer = serde_json::to_value(consumer_snapshot::answer(line)).unwrap();
    match answer["error"].as_str() {
        Some(error) => Err(error.to_string()),
        None => Ok(answer["assignment"].clone()),
    }
}

/// Member ids whose Java hashes collide (`"Aa"` and `"BB"` hash alike), so that the order members
/// enter the coordinator's `HashMap` decides its iteration order, and two that do not.
const MEMBER_IDS: [&str; 6] = ["BBAa", "AaAa", "m1", "BBBB", "AaBB", "m0"];

/// A consumer-protocol line: up to five members (ids out of order, some static) on some of three
/// topics, one that does not exist and a deleted one, owning partitions of them, of two deleted
/// topics, and now and then one the topic does not have; a third of the lines add up to 14 more topics of one or
/// two partitions, which the members subscribe to or not, so that a member's target can hold more
/// than 12 topics (Kafka's `HashMap` of it then grows past 16 buckets and walks them in another
/// order; a deleted topic's id counts among them).
fn random_line() -> impl Strategy<Value = String> {
    let topics = prop::collection::vec(0u32..7, 3);
    let member = (
        0u32..4,
        prop::collection::vec(0usize..5, 0..4),
        prop::collection::vec((0usize..5, 0u32..8), 0..7),
        prop::bool::weighted(0.2),
        prop::bool::weighted(0.7),
    );
    let extra_topics = prop_oneof![2 => Just(0usize), 1 => 10usize..15];
    (topics, prop::collection::vec(member, 0..6), prop::bool::ANY, 0usize..5, extra_topics).prop_map(
        |(counts, members, uniform, rotate, extra_topics)| {
            let extra_names: Vec<String> = (0..extra_topics).map(|x| format!("x{x}")).collect();
            let names = ["a", "b", "c", "missing", "gone-1", "gone-2"];
            let exists = |t: usize| t < 3;
            let mut seen = std::collections::HashSet::new();
            let members: Vec<Value> = members
                .into_iter()
                .enumerate()
                .map(|(i, (static_member, topics, owned, ghost, on_extra_topics))| {
                    let mut topics: Vec<&str> = topics.into_iter().map(|t| names[t]).collect();
                    topics.dedup();
                    if on_extra_topics {
                        topics.extend(extra_names.iter().map(String::as_str));
                    }
                    // Most partitions exist; a ghost is one past the topic's last.
                    let owned: Vec<Value> = owned
                        .into_iter()
                        .map(|(t, p)| {
                            let t = if t >= 3 { t + 1 } else { t };
                            let p = if exists(t) && !ghost { p % counts[t].max(1) } else { p };
                            json!([names[t], p])
                        })
                        .filter(|tp| seen.insert(tp.to_string()) || i % 2 == 0)
                        .collect();
                    json!({
                        "id": MEMBER_IDS[(i + rotate) % MEMBER_IDS.len()],
                        "instance_id": (static_member == 0).then(|| format!("i{i}")),
                        "topics": topics,
                        "owned": owned,
                    })
                })
                .collect();
            let id = |name: &str| scenario::topic_id::derived(&format!("id-{name}")).to_string();
            let mut topic_counts = json!({"a": counts[0], "b": counts[1], "c": counts[2]});
            let mut topic_ids =
                json!({"a": id("a"), "b": id("b"), "c": id("c"), "gone-1": id("gone-1"), "gone-2": id("gone-2")});
            for (x, name) in extra_names.iter().enumerate() {
                topic_counts[name] = json!(1 + x % 2);
                topic_ids[name] = json!(id(name));
            }
            json!({
                "id": rotate,
                "protocol": "consumer",
                "strategy": if uniform { "uniform" } else { "range" },
                "topics": topic_counts,
                "topic_ids": topic_ids,
                "members": members,
            })
            .to_string()
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 300,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x6c69_6e65),
        .. ProptestConfig::default()
    })]

    /// The scenario's target under the line's assignor, in the report and at the end of its
    /// walkthrough, is `kap batch`'s answer; the link opens to the same scenario; a refused line
    /// is refused with `kap batch`'s message.
    #[test]
    fn a_line_as_a_scenario_has_kap_batchs_answer(line in random_line()) {
        let opened = read_file(&line);
        let answer = match answer(&line) {
            Err(error) => {
                prop_assert_eq!(opened.map(|_| ()).map_err(|e| e.to_string()), Err(error));
                return Ok(());
            }
            Ok(answer) => answer,
        };
        let scenario = opened.unwrap();
        let assignor = scenario.server_assignor().unwrap();
        let strategy = serde_json::from_str::<Value>(&line).unwrap()["strategy"].clone();
        prop_assert_eq!(assignor.name(), strategy.as_str().unwrap());
        // The answer lists members in input order: as a map, member order aside.
        let answer: serde_json::Map<String, Value> = answer.as_object().unwrap().clone();
        let report = Report::new(&scenario);
        let target = serde_json::to_value(scenario::model::lists_to_pairs(&report.server(assignor).unwrap().target)).unwrap();
        prop_assert_eq!(&target, &Value::Object(answer.clone()));
        let model = scenario::Model::new(&scenario).unwrap();
        let id: StrategyId = scenario::format::previous_key(assignor).parse().unwrap();
        let walked = walk(&model, id, |_| {}).unwrap();
        prop_assert_eq!(serde_json::to_value(scenario::model::lists_to_pairs(&walked.assignment)).unwrap(), target);
        prop_assert_eq!(link::decode(&link::encode(&scenario)).unwrap(), scenario);
    }
}

#[test]
fn a_line_refused_by_the_page_alone_names_the_field() {
    // Kafka's member ids are never blank; the page needs one to show the member.
    let line = r#"{"protocol":"consumer","strategy":"uniform","topics":{},"topic_ids":{},"members":[{"id":" "}]}"#;
    assert_eq!(answer(line), Ok(json!({" ": []})));
    let error = read_file(line).unwrap_err();
    assert_eq!(error.to_string(), "consumer 1 id: a consumer needs an id");
    assert!(!matches!(error, ReadError::ConsumerLine(ConsumerLineError::Field { .. })));
    // ONE_UUID is the metadata topic's id, never a subscribed topic's: the page refuses it.
    let line = r#"{"protocol":"consumer","strategy":"range","topics":{"a":1},"topic_ids":{"a":"AAAAAAAAAAAAAAAAAAAAAQ"},"members":[]}"#;
    assert_eq!(answer(line), Ok(json!({})));
    assert_eq!(
        read_file(line).unwrap_err().to_string(),
        "topic 1 id: AAAAAAAAAAAAAAAAAAAAAQ is Kafka's reserved ONE_UUID, the id of the metadata topic __cluster_metadata"
    );
    // A deleted topic's id is checked as a topic's, and was no other topic's.
    let line = r#"{"protocol":"consumer","strategy":"range","topics":{"a":1},
        "topic_ids":{"a":"eZUeEuqvSSGGPuIabmBwqg","gone":"AAAAAAAAAAAAAAAAAAAAAA"},"members":[{"id":"m","owned":[["gone",0]]}]}"#;
    assert_eq!(answer(line), Ok(json!({"m": []})));
    assert_eq!(
        read_file(line).unwrap_err().to_string(),
        "previous assignment, deleted topic \"gone\" id: AAAAAAAAAAAAAAAAAAAAAA is Kafka's reserved ZERO_UUID, never a topic's id"
    );
    // kap batch refuses the id twice; a scenario file that says it is refused too.
    let twice = line.replace("AAAAAAAAAAAAAAAAAAAAAA", "eZUeEuqvSSGGPuIabmBwqg");
    assert_eq!(read_file(&twice).unwrap_err().to_string(), answer(&twice).unwrap_err());
    let mut scenario = read_file(&line.replace("AAAAAAAAAAAAAAAAAAAAAA", "o8PIcShyRL6cLz1qd5WPig")).unwrap();
    let deleted = &mut scenario.previous.as_mut().unwrap().deleted_topic_ids;
    deleted.insert("gone".into(), "eZUeEuqvSSGGPuIabmBwqg".into());
    assert_eq!(
        scenario::validate::errors(&scenario)[0].message,
        "previous assignment, deleted topic \"gone\" id: topic \"a\" already has the id eZUeEuqvSSGGPuIabmBwqg"
    );
}
