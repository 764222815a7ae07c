//! A scenario as it leaves the page: its file (the saved copy, Export JSON) and its link fragment
//! (the address bar, Share link), history included.
//!
//! A big group's previous assignment stays in the compute worker (`work`: the page's scenario
//! says [`crate::work::Prior::Settled`] with an empty `previous`). Written without it, a link, a
//! save or an export would reopen as a fresh group, and the next rebalance would differ from the
//! one the page showed. So the worker writes such a scenario: it puts back the assignment it
//! settled, exactly what a small group's scenario holds itself, and returns the texts, in format
//! 2's compact forms (`scenario::compact`): the page never builds the lists.

use scenario::{link, Scenario};
use serde::{Deserialize, Serialize};

/// A whole scenario written: what the page stores, downloads and puts in links.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Texts {
    /// The scenario file, as `kap` writes it (`scenario::to_json`).
    pub json: String,
    /// The link's fragment (without `#`): the address bar keeps it up to [`link::MAX_FRAGMENT`],
    /// Share link hands it out up to [`link::MAX_SHARED_LINK`].
    pub fragment: String,
}

impl Texts {
    /// `scenario` written, its previous assignment included.
    pub fn of(scenario: &Scenario) -> Texts {
        Texts { json: scenario::to_json(scenario), fragment: link::encode(scenario) }
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use scenario::edit::Edit;
    use scenario::report::Report;
    use scenario::{ConsumerSpec, TopicSpec};

    use super::*;
    use crate::work::{Engine, Job, Prior};

    /// `partitions` partitions on two topics, three consumers: a group whose settled assignment
    /// stays in the worker.
    fn big(partitions: u32) -> Scenario {
        Scenario {
            topics: vec![TopicSpec::new("a", partitions / 2), TopicSpec::new("b", partitions - partitions / 2)],
            consumers: ["C0", "C1", "C2"].iter().map(|id| ConsumerSpec::new(*id, &["a", "b"])).collect(),
            ..Scenario::default()
        }
    }

    /// After an edit, the worker writes the scenario on screen with the previous assignment a small
    /// group would hold itself: the texts read back to the scenario `kap` computes, and `kap`'s
    /// report of it is the one the page painted.
    #[test]
    fn the_worker_writes_a_big_group_with_the_history_it_keeps() {
        let first = big(8_000);
        let mut engine = Engine::default();
        let job = |version, prior, scenario: &Scenario| Job { version, prior, scenario: Rc::new(scenario.clone()) };
        engine.compute(vec![job(1, Prior::Inline, &first)], &[]);
        // The page's next scenario: the edit applied to version 1 settled, without the lists.
        let settled = Report::new(&first).settled(&first);
        let edited = Edit::AddConsumer.apply(&settled).unwrap_or_else(|e| panic!("{e:?}"));
        let on_screen = Scenario { previous: None, ..edited.clone() };
        let answer = engine.compute(vec![job(2, Prior::Settled(1), &on_screen)], &[1]);
        assert!(answer.as_ref().is_some_and(|a| a.previous.is_none()), "8,000 partitions do not cross");

        let whole = engine.whole(1, &on_screen).unwrap_or_else(|| panic!("version 1 is kept"));
        assert_eq!(whole, edited);
        let texts = engine.write(Prior::Settled(1), &on_screen).unwrap_or_else(|| panic!("version 1 is kept"));
        assert_eq!(texts, Texts::of(&whole));
        let read = scenario::parse_scenario(&texts.json).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read.version, 2, "a previous assignment of 32,000 entries is written compact");
        assert_eq!(Scenario { version: 1, ..read.clone() }, edited);
        assert!(texts.fragment.starts_with("v2."));
        assert_eq!(link::decode(&texts.fragment), Ok(read.clone()));
        // Reopened, the group rebalances as the page showed it.
        let painted = answer.map(|a| a.computed);
        assert_eq!(painted, Some(crate::computed::Computed::new(&Report::new(&read), &read)));

        // A version the worker no longer keeps is not written without its history.
        engine.compute(vec![job(3, Prior::Inline, &first)], &[3]);
        assert_eq!(engine.whole(1, &on_screen), None);
        assert_eq!(engine.write(Prior::Settled(1), &on_screen), None);
    }

    /// A small group's link and file are written by the worker too, from the scenario the page
    /// holds whole: what `kap` writes of it, whatever the worker keeps.
    #[test]
    fn the_worker_writes_a_small_group_as_kap_does() {
        let small = Report::new(&big(12)).settled(&big(12));
        let texts = Engine::default().write(Prior::Inline, &small).unwrap_or_else(|| panic!("not written"));
        assert_eq!(texts.json, scenario::to_json(&small));
        assert_eq!(texts.fragment, link::encode(&small));
        assert_eq!(link::decode(&texts.fragment), Ok(small));
    }
}
