//! A panel's members: one row per member (its own component, keyed by member id, re-rendered only
//! when its own figures or chips change) and, for a big group, the load chart, the list of rows to
//! scroll (only the rows in view are in the DOM) and search, and the member opened to see its
//! partitions.

use std::rc::Rc;
use std::sync::Arc;

use scenario::digest::{Chip, ChipKind, GroupSummary, MemberDetail, MemberDigest, MemberRequest, PanelDigest};
use web_sys::HtmlElement;
use yew::prelude::*;

use crate::ui::ahead::{use_view_change, ViewChanges};
use crate::ui::fields::SearchField;
use crate::ui::find::{found, Needle};
use crate::ui::panel::{MemberSource, Unanswered};
use crate::ui::topic_class;

/// How every row of a panel is drawn: the same for all its rows.
#[derive(Clone, PartialEq)]
pub struct RowStyle {
    /// Topic names, which chips index; the position is the topic's colour.
    pub topics: Arc<[String]>,
    /// Whether added partitions are marked and revoked ones shown.
    pub show_diff: bool,
    /// What weights measure, when topics have weights (rows then show each member's weight).
    pub unit: Option<AttrValue>,
    /// Whether racks are in play (rows then say how many partitions a member reads across racks).
    pub racks: bool,
}

#[derive(Properties, PartialEq)]
pub struct MemberRowProps {
    pub member: Arc<MemberDigest>,
    pub style: RowStyle,
    /// In a big group's list: opens the member (its id), and where the row sits, in pixels.
    #[prop_or_default]
    pub open: Option<Callback<String>>,
    #[prop_or_default]
    pub opened: bool,
    #[prop_or_default]
    pub top: Option<u32>,
}

/// One member: name and rack, partition count, weight, load bar and, below the chip limit, chips.
#[function_component]
pub fn MemberRow(props: &MemberRowProps) -> Html {
    crate::ui::rendered("MemberRow");
    let m = &props.member;
    let style = &props.style;
    let onclick = props.open.clone().map(|open| {
        let id = m.id.clone();
        Callback::from(move |_: MouseEvent| open.emit(id.clone()))
    });
    let name = match onclick {
        Some(onclick) => html! {
            <button type="button" class="open-member" aria-expanded={props.opened.to_string()} title={format!("show the partitions of {}", m.id)} {onclick}>{ m.id.clone() }</button>
        },
        None => html! { m.id.clone() },
    };
    let changes = (style.show_diff && props.open.is_some() && (m.added > 0 || m.revoked > 0)).then(|| {
        html! { <span class="changes" title={format!("{} added, {} revoked", m.added, m.revoked)}>{ format!("+{} −{}", m.added, m.revoked) }</span> }
    });
    let across = (style.racks && m.cross_rack > 0 && m.chips.is_none()).then(|| {
        html! { <span class="across" title="partitions read from a rack that holds none of their replicas">{ format!("{} cross-rack", m.cross_rack) }</span> }
    });
    html! {
        <li class={classes!("member", m.most_loaded.then_some("most-loaded"), (m.count == 0).then_some("idle"), style.unit.is_some().then_some("weighted"), props.opened.then_some("opened"))}
            data-member={m.id.clone()} style={props.top.map(|top| format!("top:{top}px"))}>
            <span class="name">
                { name }
                if let Some(rack) = &m.rack {
                    <span class="rack" title={format!("client.rack {rack}")}>{ format!("rack {rack}") }</span>
                }
            </span>
            <span class="count" aria-label={format!("{} partitions", m.count)}>{ m.count }</span>
            if let Some(unit) = &style.unit {
                <span class="weight" data-weight={m.weight.to_string()} aria-label={format!("{} {unit}", m.weight)}>{ m.weight }</span>
            }
            // The fill is the bar's background, drawn to `--bar` (style.css): a new load repaints it.
            <span class="bar" aria-hidden="true" style={format!("--bar:{}%", m.bar)}></span>
            if let Some(chips) = &m.chips {
                { chip_list(chips, style) }
            } else if changes.is_some() || across.is_some() {
                <span class="row-notes">{ changes }{ across }</span>
            }
        </li>
    }
}

/// A member's chips: what it holds (added ones marked when the diff is shown), then, with the diff,
/// what it revoked.
fn chip_list(chips: &[Chip], style: &RowStyle) -> Html {
    html! {
        <span class="chips">
            { for chips.iter().filter(|c| style.show_diff || c.kind != ChipKind::Revoked).map(|c| chip(c, style)) }
        </span>
    }
}

fn chip(c: &Chip, style: &RowStyle) -> Html {
    let topic = style.topics.get(c.topic as usize).map_or("?", String::as_str);
    let text = format!("{topic}-{}", c.partition);
    let kind = match c.kind {
        ChipKind::Added if !style.show_diff => ChipKind::Kept,
        kind => kind,
    };
    // Across racks is said in words (the title) and by a mark drawn after the text, not by colour.
    let title = format!("{text}: {}{}", kind.name(), if c.cross_rack { ", read across racks" } else { "" });
    let class = classes!("chip", topic_class(c.topic as usize), kind.name(), c.cross_rack.then_some("cross-rack"));
    let across = c.cross_rack.then_some("");
    match kind {
        ChipKind::Revoked => html! { <span {class} data-revoked={text.clone()} {title}>{ text }</span> },
        _ => html! { <span {class} data-partition={text.clone()} data-cross-rack={across} {title}>{ text }</span> },
    }
}

/// A row of a big group's list, in pixels: fixed, so that where each row sits is known without
/// measuring it (two lines of a long member id fit).
const ROW_PX: u32 = 44;
/// The list's height, in pixels, at most (`style.css`'s `.member-scroll` keeps it while the list is out
/// of view and not rendered).
const VIEW_PX: u32 = 440;
/// Rows rendered above and below the ones in view, so a quick scroll shows no gap.
const OVERSCAN: usize = 6;
/// The most rows a big group's list renders at once: the ones in view and the overscan either side.
pub const ROWS_IN_VIEW: usize = (VIEW_PX / ROW_PX) as usize + 1 + 2 * OVERSCAN;

#[derive(Properties, PartialEq)]
pub struct BigGroupProps {
    /// The panel's digest (its outcome is `Ok`).
    pub digest: Rc<PanelDigest>,
    pub style: RowStyle,
    pub details: MemberSource,
    /// How many of the rows in view are rendered yet (the panel reveals them a slice per frame when it
    /// first renders).
    pub rows: usize,
    /// The copy of the panels it is in (`ui::ahead`), if any.
    pub changes: Option<ViewChanges>,
}

/// A big group's members: the load chart, a search box and the rows in view; a member opened shows
/// its partitions.
#[function_component]
pub fn BigGroup(props: &BigGroupProps) -> Html {
    let query = use_state(String::new);
    let opened = use_state(|| None::<String>);
    let first_row = use_state_eq(|| 0usize);
    // Scrolled at all (the first row may still be in view).
    let scrolled = use_state_eq(|| false);
    use_view_change(props.changes.as_ref(), !query.is_empty() || opened.is_some() || *scrolled);
    let scroller = use_node_ref();
    let needle = Needle::new(&query);
    let matches = use_memo((Rc::clone(&props.digest), needle.clone()), |(digest, needle)| {
        let members = digest.outcome.as_ref().map(|o| o.members.as_slice()).unwrap_or_default();
        members.iter().enumerate().filter(|(_, m)| needle.finds(&m.id)).map(|(i, _)| i).collect::<Vec<usize>>()
    });
    let Ok(outcome) = &props.digest.outcome else { return html! {} };
    let open = {
        let opened = opened.clone();
        use_callback(opened, |id: String, opened| {
            let again = opened.as_deref() == Some(id.as_str());
            opened.set((!again).then_some(id));
        })
    };
    let close = {
        let opened = opened.clone();
        use_callback(opened, |_: (), opened| opened.set(None))
    };
    let onscroll = {
        let (first_row, scrolled) = (first_row.clone(), scrolled.clone());
        use_callback((first_row, scrolled), |e: Event, (first_row, scrolled)| {
            let list: HtmlElement = e.target_unchecked_into();
            let top = usize::try_from(list.scroll_top()).unwrap_or(0);
            first_row.set(top / ROW_PX as usize);
            scrolled.set(top > 0);
        })
    };
    let on_query = {
        let (query, first_row, scrolled, scroller) =
            (query.clone(), first_row.clone(), scrolled.clone(), scroller.clone());
        use_callback((query, first_row, scrolled, scroller), |text: String, (query, first_row, scrolled, scroller)| {
            query.set(text);
            // A new search starts at the top of its matches.
            first_row.set(0);
            scrolled.set(false);
            if let Some(list) = scroller.cast::<HtmlElement>() {
                list.set_scroll_top(0);
            }
        })
    };
    let on_enter = {
        let (opened, matches, digest) = (opened.clone(), Rc::clone(&matches), Rc::clone(&props.digest));
        use_callback((opened, matches, digest), |typed: String, (opened, matches, digest)| {
            let members = digest.outcome.as_ref().map(|o| o.members.as_slice()).unwrap_or_default();
            // Enter opens the member named exactly, or the only match.
            let exact = members.iter().find(|m| m.id == typed.trim());
            let only = (matches.len() == 1).then(|| matches.first().and_then(|&i| members.get(i))).flatten();
            if let Some(m) = exact.or(only) {
                opened.set(Some(m.id.clone()));
            }
        })
    };
    let total = outcome.members.len();
    let shown = matches.len();
    let first = (*first_row).saturating_sub(OVERSCAN).min(shown);
    let last =
        (*first_row + (VIEW_PX / ROW_PX) as usize + 1 + OVERSCAN).min(shown).min(first.saturating_add(props.rows));
    let height = ROW_PX as usize * shown;
    let opened_member = opened.as_ref().and_then(|id| outcome.members.iter().find(|m| &m.id == id));
    let status = found(&needle, shown, total, ("member", "members"));
    html! {
        <div class="big-group">
            if let Some(summary) = &outcome.summary {
                <LoadChart digest={Rc::clone(&props.digest)} />
                { summary_figures(summary, &props.style) }
            }
            <SearchField class="member-search" label={format!("Find a member in {}", props.digest.panel.title())}
                placeholder="Find a member by id" value={(*query).clone()} status={status.clone()} on_change={on_query} on_enter={Some(on_enter)} />
            if let Some(id) = opened.as_ref() {
                <OpenedMember request={MemberRequest { panel: props.digest.panel, member: id.clone() }}
                    member={opened_member.map(Arc::clone)} details={props.details.clone()} style={props.style.clone()} on_close={close} />
            }
            <div class="member-scroll" ref={scroller} {onscroll} style={format!("max-height:{VIEW_PX}px")} tabindex="0"
                aria-label={format!("members of {}, {status}", props.digest.panel.title())}>
                <ol class="members virtual" style={format!("height:{height}px")}>
                    { for matches.get(first..last).unwrap_or_default().iter().zip(first..).filter_map(|(&i, at)| outcome.members.get(i).map(|m| (at, m))).map(|(at, m)| {
                        let top = u32::try_from(at).unwrap_or(u32::MAX).saturating_mul(ROW_PX);
                        html! {
                            <MemberRow key={m.id.clone()} member={Arc::clone(m)} style={props.style.clone()}
                                open={open.clone()} opened={opened.as_deref() == Some(m.id.as_str())} top={Some(top)} />
                        }
                    }) }
                </ol>
            </div>
        </div>
    }
}

/// The big group's figures beside the chart: heaviest members, uneven topics, what moved.
fn summary_figures(summary: &GroupSummary, style: &RowStyle) -> Html {
    let topic = |t: u32| style.topics.get(t as usize).cloned().unwrap_or_default();
    let heaviest = summary.heaviest.iter().map(|(id, load)| format!("{id} ({load})")).collect::<Vec<_>>().join(", ");
    let uneven = if summary.uneven_count == 0 {
        "every topic within 1".to_string()
    } else {
        let listed = summary.uneven_topics.iter().map(|&(t, s)| format!("{} {s}", topic(t))).collect::<Vec<_>>();
        format!("{} ({} topics above 1)", listed.join(", "), summary.uneven_count)
    };
    let flows = summary
        .flows
        .iter()
        .map(|f| format!("{} → {}: {}", f.from, f.to.as_deref().unwrap_or("held back"), f.count))
        .collect::<Vec<_>>()
        .join(", ");
    let by_topic =
        summary.moved_by_topic.iter().map(|&(t, n)| format!("{} {n}", topic(t))).collect::<Vec<_>>().join(", ");
    html! {
        <dl class="big-figures">
            if !heaviest.is_empty() {
                <div><dt>{ "heaviest" }</dt><dd>{ heaviest }</dd></div>
            }
            <div><dt title="per topic, most minus fewest partitions of it over its subscribers">{ "topic spread" }</dt><dd>{ uneven }</dd></div>
            if style.show_diff && !flows.is_empty() {
                <div><dt>{ "largest moves" }</dt><dd>{ flows }</dd></div>
                <div><dt>{ "moved by topic" }</dt><dd>{ by_topic }</dd></div>
            }
        </dl>
    }
}

#[derive(Properties, PartialEq)]
pub struct LoadChartProps {
    /// The panel's digest, whose summary's load profile the chart draws.
    pub digest: Rc<PanelDigest>,
}

/// Members' loads, heaviest to lightest, as one filled step line: flat when balanced, a cliff where
/// some members carry more, a tail at zero for idle ones.
#[function_component]
pub fn LoadChart(props: &LoadChartProps) -> Html {
    let Some(summary) = props.digest.outcome.as_ref().ok().and_then(|o| o.summary.as_ref()) else { return html! {} };
    let profile = &summary.profile;
    let (Some(&max), Some(&min)) = (profile.first(), profile.last()) else { return html! {} };
    let scale = max.max(1) as f64;
    let mut path = String::from("M0,100");
    for (i, &load) in profile.iter().enumerate() {
        let y = super::fixed(100.0 - 100.0 * load as f64 / scale, 1);
        path.push_str(&format!(" L{i},{y} L{},{y}", i + 1));
    }
    path.push_str(&format!(" L{},100 Z", profile.len()));
    let label = format!("members' loads, heaviest to lightest: from {max} down to {min}");
    html! {
        <figure class="load-chart">
            <svg viewBox={format!("0 0 {} 100", profile.len())} preserveAspectRatio="none" role="img" aria-label={label}>
                <path d={path} />
            </svg>
            <figcaption><span>{ max }</span><span>{ "members by load" }</span><span>{ min }</span></figcaption>
        </figure>
    }
}

#[derive(Properties, PartialEq)]
pub struct OpenedMemberProps {
    pub request: MemberRequest,
    /// Its row, while it is in the group.
    pub member: Option<Arc<MemberDigest>>,
    pub details: MemberSource,
    pub style: RowStyle,
    pub on_close: Callback<()>,
}

/// A member opened in a big group's panel: its partitions as chips, asked for when it opens (and
/// again with every new result).
#[function_component]
pub fn OpenedMember(props: &OpenedMemberProps) -> Html {
    // The last answer, with the request it answers.
    let answered = use_state(|| None::<(MemberRequest, Result<Option<Rc<MemberDetail>>, Unanswered>)>);
    {
        let answered = answered.clone();
        use_effect_with((props.request.clone(), props.details.clone()), move |(request, details)| {
            let asked = request.clone();
            let answer = Callback::from(move |answer| answered.set(Some((asked.clone(), answer))));
            details.ask(request.clone(), answer);
        });
    }
    let close = props.on_close.reform(|_: MouseEvent| ());
    let id = &props.request.member;
    // An answer to an earlier request (another member) is not shown; one of a result since
    // replaced is, until the new one comes.
    let answer = (*answered).as_ref().filter(|(request, _)| *request == props.request).map(|(_, answer)| answer);
    let detail = answer.and_then(|a| a.as_ref().ok()).and_then(Option::as_ref);
    let unanswered = answer.and_then(|a| a.as_ref().err());
    let style = detail.map(|d| RowStyle { topics: Arc::clone(&d.topics), ..props.style.clone() });
    html! {
        <section class="opened-member" data-opened-member={id.clone()} aria-label={format!("partitions of {id}")}>
            <header>
                <strong class="name">{ id.clone() }</strong>
                if let Some(m) = &props.member {
                    if let Some(rack) = &m.rack {
                        <span class="rack">{ format!("rack {rack}") }</span>
                    }
                    <span>{ format!("{} partitions", m.count) }</span>
                    if props.style.show_diff {
                        <span>{ format!("+{} added, −{} revoked", m.added, m.revoked) }</span>
                    }
                    if props.style.racks {
                        <span>{ format!("{} cross-rack", m.cross_rack) }</span>
                    }
                }
                <button type="button" class="close" onclick={close} aria-label={format!("close {id}")}>{ "Close" }</button>
            </header>
            if props.member.is_none() {
                <p class="hint">{ format!("{id} is not in this panel's group.") }</p>
            } else if let Some(why) = unanswered {
                <p class="error" role="alert">{ why.message() }</p>
            } else if let (Some(detail), Some(style)) = (detail, style.as_ref()) {
                { chip_list(&detail.chips, style) }
                if detail.more > 0 {
                    <p class="hint">{ format!("and {} more", detail.more) }</p>
                }
            } else {
                <p class="hint" aria-busy="true">{ "Loading its partitions…" }</p>
            }
        </section>
    }
}
