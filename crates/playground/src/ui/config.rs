//! The Configuration section: for the strategy the user picks, each client's exact settings with a
//! copy button and a link to its documentation, and the safe migration from the consumers' current
//! lists, step by step (`scenario::config`, the same as `kap config`).

use std::rc::Rc;

use assignor::Strategy;
use scenario::config::{self, ServerAssignor, Target};
use scenario::Scenario;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::browser;

const TARGETS: [(&str, Target); 6] = [
    ("cooperative-sticky", Target::Classic(Strategy::CooperativeSticky)),
    ("sticky", Target::Classic(Strategy::Sticky)),
    ("range", Target::Classic(Strategy::Range)),
    ("roundrobin", Target::Classic(Strategy::RoundRobin)),
    ("uniform (consumer protocol)", Target::Consumer(ServerAssignor::Uniform)),
    ("range (consumer protocol)", Target::Consumer(ServerAssignor::Range)),
];

/// The consumers of the scenario on screen as the migration reads them, compared by their ids and
/// strategy lists only: a new scenario whose consumers run the same lists (a partition count
/// typed, an answer painted) neither renders the section again nor works the steps out again.
#[derive(Clone)]
pub struct Consumers(pub Rc<Scenario>);

impl Consumers {
    fn lists(&self) -> impl Iterator<Item = (&str, &[String])> {
        self.0.consumers.iter().map(|c| (c.id.as_str(), c.strategies.as_slice()))
    }
}

impl PartialEq for Consumers {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0) || self.lists().eq(other.lists())
    }
}

/// The most consumers a step names one by one; beyond, it names the first few and counts the
/// rest, as the panels summarise a big group (a midway bounce of 2,000 consumers named 1,000).
const NAMED: usize = 10;
/// How many a summarised list still names.
const NAMED_FIRST: usize = 3;

/// `ids` as the page words a long list of them: the first few, then how many others.
fn few_of(ids: &[&str]) -> String {
    match ids.split_at_checked(NAMED_FIRST) {
        Some((first, rest)) if ids.len() > NAMED => format!("{} and {} others", first.join(", "), rest.len()),
        _ => ids.join(", "),
    }
}

/// `text` with the list `ids` (as `scenario::config` joins them) shortened by [`few_of`].
fn shorten(text: &mut String, ids: &[&str]) {
    if ids.len() > NAMED {
        *text = text.replacen(&ids.join(", "), &few_of(ids), 1);
    }
}

/// The migration with its long lists of consumers shortened: the members restarted midway through
/// a bounce (the first half, in JoinGroup order), those still on an eager strategy and those
/// refused. `kap config` names them all.
fn summarised(mut migration: config::Migration) -> config::Migration {
    for step in migration.steps.iter_mut().chain(migration.trap.as_mut()) {
        // Midway through a bounce, the restarted half (the first in JoinGroup order) rejoined last:
        // the title names them.
        let members = step.lists.len();
        let restarted: Vec<&str> =
            step.lists.iter().skip(members - members.div_ceil(2)).map(|(id, _)| id.as_str()).collect();
        shorten(&mut step.title, &restarted);
        let selection = &step.selection;
        let eager: Vec<&str> = selection
            .protocols
            .iter()
            .filter(|(_, p)| *p == assignor::protocol::RebalanceProtocol::Eager)
            .map(|(id, _)| id.as_str())
            .collect();
        if eager.len() < selection.protocols.len() {
            shorten(&mut step.outcome, &eager);
        }
        let refused: Vec<&str> = selection.rejected.iter().map(|(id, _)| id.as_str()).collect();
        shorten(&mut step.outcome, &refused);
    }
    migration
}

#[derive(Properties, PartialEq)]
pub struct ConfigProps {
    pub consumers: Consumers,
}

#[function_component]
pub fn ConfigSection(props: &ConfigProps) -> Html {
    let chosen = use_state(|| 0usize);
    let target = TARGETS.get(*chosen).map_or(Target::Classic(Strategy::CooperativeSticky), |(_, t)| *t);
    let onchange = {
        let chosen = chosen.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            chosen.set(usize::try_from(select.selected_index()).unwrap_or(0));
        })
    };
    // Worked out again only when the consumers' lists or the target change: at 2,000 consumers the
    // steps are not free, and most edits change neither.
    let migration = use_memo((props.consumers.clone(), target), |(consumers, target)| {
        let target = *target;
        let lists: Vec<(String, Vec<Strategy>)> = consumers
            .lists()
            .map(|(id, names)| (id.to_string(), names.iter().filter_map(|n| n.parse().ok()).collect()))
            .collect();
        match target {
            Target::Classic(strategy) if !lists.is_empty() => Some(summarised(config::migration(&lists, strategy))),
            _ => None,
        }
    });
    html! {
        <section class="config" aria-label="Configuration">
            <h2>{ "Configuration" }</h2>
            <label class="inline">{ "Settings for " }
                <select {onchange}>
                    { for TARGETS.iter().enumerate().map(|(i, (name, _))| html! { <option selected={i == *chosen}>{ *name }</option> }) }
                </select>
            </label>
            <ClientList key={target.to_string()} {target} />
            if let Some(migration) = (*migration).as_ref().filter(|m| m.steps.len() > 1) {
                <h3>{ "Getting there safely" }</h3>
                <ol class="migration">
                    { for migration.steps.iter().map(|step| html! {
                        <li><strong>{ step.title.clone() }</strong>{ ": " }{ step.outcome.clone() }{ "." }</li>
                    }) }
                </ol>
                if let Some(note) = &migration.librdkafka {
                    <p class="note">{ note.clone() }</p>
                }
                if let Some(trap) = &migration.trap {
                    <p class="trap" role="note"><strong>{ "Do not: " }{ trap.title.trim_start_matches("The trap, ").to_string() }</strong>{ ": " }{ trap.outcome.clone() }{ "." }</p>
                }
            }
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct ClientListProps {
    pub target: Target,
    /// Said after "Copy the … settings" on each copy button, where two lists are on the page.
    #[prop_or_default]
    pub context: AttrValue,
}

/// Each client's settings for `target` with a link to its documentation and a copy button
/// (`scenario::config::settings`, as `kap config` prints them). Keyed by target, so a copy's
/// "Copied" goes with the list it was said of.
#[function_component]
pub fn ClientList(props: &ClientListProps) -> Html {
    let copied = use_state(|| None::<(usize, bool)>);
    let settings = config::settings(props.target);
    html! {
        <ul class="clients">
            { for settings.iter().enumerate().map(|(i, s)| {
                let text = s.lines.join("\n");
                let copy = {
                    let (copied, text) = (copied.clone(), text.clone());
                    Callback::from(move |_| copied.set(Some((i, browser::copy_text(&text)))))
                };
                let label = match *copied {
                    Some((j, true)) if j == i => "Copied",
                    Some((j, false)) if j == i => "Select and copy",
                    _ => "Copy",
                };
                html! {
                    <li data-client={s.client.name()}>
                        <h3><a href={s.docs} target="_blank" rel="noopener">{ s.client.name() }</a></h3>
                        if !s.lines.is_empty() {
                            <pre><code>{ text.clone() }</code></pre>
                            <button type="button" onclick={copy} aria-label={format!("Copy the {} settings{}", s.client.name(), props.context)}>{ label }</button>
                        }
                        if let Some(note) = &s.note {
                            <p class="note">{ note.clone() }</p>
                        }
                    </li>
                }
            }) }
        </ul>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` consumers C0… all listing `list`.
    fn group(n: usize, list: &[Strategy]) -> Vec<(String, Vec<Strategy>)> {
        (0..n).map(|i| (format!("C{i}"), list.to_vec())).collect()
    }

    #[test]
    fn a_long_list_of_consumers_names_three_and_counts_the_others() {
        let migration = summarised(config::migration(&group(30, &[Strategy::Range]), Strategy::CooperativeSticky));
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
            let full = config::migration(&group(n, &[Strategy::Range]), Strategy::CooperativeSticky);
            assert_eq!(summarised(full.clone()), full, "{n} consumers");
        }
    }
}
