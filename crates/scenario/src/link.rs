//! Share links: the whole scenario in the URL fragment (never sent to a server), versioned from the
//! first link, compact.
//!
//! A fragment is `v<format>.` followed by the scenario's JSON without spaces (fields at their
//! default left out), raw-deflated and base64url-encoded without padding: `v1.` for a scenario
//! written in the long form, `v2.` for one in the compact forms of a large group
//! ([`crate::compact`]). A link posted once must decode forever: every version this crate ever
//! wrote stays readable (tests keep a frozen corpus of links).

use std::fmt;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

use crate::format::{Scenario, VERSION};
use crate::ReadError;

/// The longest fragment decoded: Chromium keeps URLs up to 2 MB, so no longer link can reach a
/// page; refused on its length alone.
pub const MAX_FRAGMENT: usize = 2 << 20;
/// The most bytes a fragment may inflate to (16 MiB): far above any scenario a page can save (a
/// browser keeps about 5 MB per site), and inflating stops there, so a link that would inflate to
/// more is refused in bounded time however much it holds.
pub const MAX_INFLATED: usize = 16 << 20;
/// Links longer than this get cut or refused by some chat tools and issue trackers.
pub const LONG_LINK: usize = 2000;
/// The longest link handed out: Slack cuts messages at 40,000 characters, and a longer link is
/// hard to pass on anywhere else; such a scenario travels as its JSON file.
pub const MAX_SHARED_LINK: usize = 40_000;

/// A link too long to share: the scenario travels as its JSON file instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooLong {
    /// The link's length, in characters.
    pub length: usize,
}

impl fmt::Display for TooLong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the link would be {} characters, too long to share: chat tools cut links over {} characters{}. Share the scenario as a JSON file instead",
            self.length,
            MAX_SHARED_LINK,
            if self.length > MAX_FRAGMENT { " and browsers do not open links over 2 MB" } else { "" }
        )
    }
}

impl std::error::Error for TooLong {}

/// Why a link does not open. The messages say what the person can do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// No `v<number>.` at the start: not one of our links.
    NotALink,
    /// Made by a newer version of the playground.
    FutureVersion(u32),
    /// Cut short or altered on the way (bad base64, bad deflate stream).
    Damaged(String),
    /// Longer than [`MAX_FRAGMENT`], or inflating to more than [`MAX_INFLATED`] bytes.
    TooLarge,
    /// Decoded, but not a scenario this version reads.
    Invalid(ReadError),
    /// The link's version and its scenario's differ: made by hand or altered.
    MixedVersions {
        /// The version the link's prefix says.
        link: u32,
        /// The version its scenario says.
        scenario: u32,
    },
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkError::NotALink => write!(f, "this link does not hold a scenario"),
            LinkError::FutureVersion(v) => write!(
                f,
                "this link was made by a newer version of the playground (format {v}; this one reads up to {VERSION})"
            ),
            LinkError::Damaged(why) => write!(f, "this link is damaged, perhaps cut short when it was copied ({why})"),
            LinkError::TooLarge => write!(
                f,
                "this link holds more than this version opens (at most {} MB of scenario, {} MB of link)",
                MAX_INFLATED >> 20,
                MAX_FRAGMENT >> 20
            ),
            LinkError::Invalid(why) => write!(f, "this link holds a scenario this version cannot read: {why}"),
            LinkError::MixedVersions { link, scenario } => write!(
                f,
                "this link holds a scenario this version cannot read: the link says format {link} but holds format {scenario}"
            ),
        }
    }
}

impl std::error::Error for LinkError {}

/// The URL fragment (without `#`) for `scenario`, in the form [`Scenario::form`] chooses.
pub fn encode(scenario: &Scenario) -> String {
    encode_in(scenario, scenario.form())
}

/// The URL fragment for `scenario` written in `form`: its prefix is the format it is written in.
pub fn encode_in(scenario: &Scenario, form: crate::Form) -> String {
    let written = scenario.written(form);
    let json = serde_json::to_vec(&written).unwrap_or_default();
    let deflated = miniz_oxide::deflate::compress_to_vec(&json, 9);
    // A scenario of no version (made by hand) still gets a link, which then says why it cannot open.
    format!("v{}.{}", written.version().max(1), URL_SAFE_NO_PAD.encode(deflated))
}

/// The scenario a fragment holds (with or without its leading `#`): [`deflated`], [`inflate`] and
/// [`read`] in turn. `kap` and the page read links with it alike (the page in its compute worker,
/// `work::OpenRequest`, so that its download holds no reader of links, issue 9).
pub fn decode(fragment: &str) -> Result<Scenario, LinkError> {
    let deflated = deflated(fragment)?;
    read(deflated.version, &inflate(&deflated.bytes)?)
}

/// A fragment's payload, still deflated, and the format its prefix says.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Deflated {
    /// The format version of the `v<format>.` prefix.
    version: u32,
    /// The raw-deflated scenario file.
    bytes: Vec<u8>,
}

/// The first step of [`decode`]: the prefix checked (a link of this version, within
/// [`MAX_FRAGMENT`]) and the base64 read.
fn deflated(fragment: &str) -> Result<Deflated, LinkError> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let (version, payload) = split_version(fragment).ok_or(LinkError::NotALink)?;
    if version > VERSION {
        return Err(LinkError::FutureVersion(version));
    }
    if version == 0 {
        return Err(LinkError::NotALink);
    }
    if payload.len() > MAX_FRAGMENT {
        return Err(LinkError::TooLarge);
    }
    let bytes = URL_SAFE_NO_PAD.decode(payload.trim_end_matches('=')).map_err(|e| LinkError::Damaged(e.to_string()))?;
    Ok(Deflated { version, bytes })
}

/// The second step of [`decode`]: the scenario file inflated, stopping at [`MAX_INFLATED`]. Bytes
/// after the end of the deflate stream are refused, as browsers' inflaters refuse them (the page
/// read links with `DecompressionStream` at stop 20, and links made then must mean the same).
fn inflate(deflated: &[u8]) -> Result<Vec<u8>, LinkError> {
    use miniz_oxide::inflate::core::{decompress, inflate_flags, DecompressorOxide};
    use miniz_oxide::inflate::TINFLStatus;

    let mut state = Box::<DecompressorOxide>::default();
    let mut json = vec![0; deflated.len().saturating_mul(2).clamp(64, MAX_INFLATED)];
    let (mut input, mut written) = (deflated, 0);
    loop {
        let flags = inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
        let (status, read, wrote) = decompress(&mut state, input, &mut json, written, flags);
        written += wrote;
        input = input.get(read..).unwrap_or_default();
        match status {
            TINFLStatus::Done if input.is_empty() => {
                json.truncate(written);
                return Ok(json);
            }
            TINFLStatus::Done => return Err(LinkError::Damaged("bytes follow the end of the compressed data".into())),
            TINFLStatus::HasMoreOutput if json.len() < MAX_INFLATED => {
                json.resize(json.len().saturating_mul(2).min(MAX_INFLATED), 0);
            }
            // The stream goes on past the limit: a valid stream, too large to open.
            TINFLStatus::HasMoreOutput => return Err(LinkError::TooLarge),
            status => return Err(LinkError::Damaged(format!("{status:?}").to_ascii_lowercase())),
        }
    }
}

/// The last step of [`decode`]: the inflated file read as a scenario of the link's `version`.
fn read(version: u32, json: &[u8]) -> Result<Scenario, LinkError> {
    let text = std::str::from_utf8(json).map_err(|e| LinkError::Damaged(e.to_string()))?;
    let scenario = crate::parse_scenario(text).map_err(LinkError::Invalid)?;
    if scenario.version != version {
        return Err(LinkError::MixedVersions { link: version, scenario: scenario.version });
    }
    Ok(scenario)
}

/// `v<digits>.rest` to `(digits, rest)`.
fn split_version(fragment: &str) -> Option<(u32, &str)> {
    let rest = fragment.strip_prefix('v')?;
    let dot = rest.find('.')?;
    let digits = rest.get(..dot)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((digits.parse().unwrap_or(u32::MAX), rest.get(dot + 1..)?))
}

/// A full link: `base` (the playground's address) with the scenario in the fragment; `embed`
/// opens the compact read-only view for documentation pages.
pub fn url(base: &str, scenario: &Scenario, embed: bool) -> String {
    url_with(base, &encode(scenario), embed)
}

/// [`url`] of a fragment [`encode`] wrote (the page's compute worker writes a big group's, whose
/// previous assignment it holds).
pub fn url_with(base: &str, fragment: &str, embed: bool) -> String {
    let base = base.split('#').next().unwrap_or(base);
    let query = if embed {
        if base.contains('?') {
            "&embed"
        } else {
            "?embed"
        }
    } else {
        ""
    };
    format!("{base}{query}#{fragment}")
}

/// [`url`], if the link is short enough to share ([`MAX_SHARED_LINK`]).
pub fn shareable_url(base: &str, scenario: &Scenario, embed: bool) -> Result<String, TooLong> {
    shareable(base, &encode(scenario), embed)
}

/// [`url_with`], if the link is short enough to share ([`MAX_SHARED_LINK`]).
pub fn shareable(base: &str, fragment: &str, embed: bool) -> Result<String, TooLong> {
    let link = url_with(base, fragment, embed);
    if link.len() > MAX_SHARED_LINK {
        return Err(TooLong { length: link.len() });
    }
    Ok(link)
}

/// The `<iframe>` snippet a documentation page embeds.
pub fn iframe(base: &str, scenario: &Scenario) -> String {
    iframe_with(base, scenario, &encode(scenario))
}

/// [`iframe`] of `scenario` (its title and view) linking to `fragment`, which [`encode`] wrote of it.
pub fn iframe_with(base: &str, scenario: &Scenario, fragment: &str) -> String {
    let title = if scenario.title.is_empty() { "Kafka partition assignment" } else { scenario.title.as_str() };
    // Panels two abreast: a header and metrics, a row per member, the rebalance's rounds.
    let panels = scenario.view.shown().len();
    let rows = panels.div_ceil(2);
    let per_panel = 130 + 34 * scenario.consumers.len() + if scenario.view.diff { 90 } else { 0 };
    let height = (90 + rows * (per_panel + 16)).min(2400);
    format!(
        "<iframe src=\"{}\" title=\"{}\" width=\"100%\" height=\"{height}\" style=\"border:0\" loading=\"lazy\"></iframe>",
        escape_attribute(&url_with(base, fragment, true)),
        escape_attribute(title)
    )
}

fn escape_attribute(text: &str) -> String {
    text.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_read_before_anything_else() {
        assert_eq!(decode("v3.abc"), Err(LinkError::FutureVersion(3)));
        assert_eq!(decode("v99999999999.abc"), Err(LinkError::FutureVersion(u32::MAX)));
        assert_eq!(decode("hello"), Err(LinkError::NotALink));
        assert_eq!(decode("v.abc"), Err(LinkError::NotALink));
        assert_eq!(decode(""), Err(LinkError::NotALink));
        assert!(matches!(decode("v1.!!!"), Err(LinkError::Damaged(_))));
        // Bytes after the deflate stream's end: refused, as the page's inflater (the browser's) does.
        let mut deflated = deflated(&encode(&Scenario::default())).unwrap().bytes;
        assert!(read(1, &inflate(&deflated).unwrap()).is_ok());
        deflated.extend_from_slice(&[1, 2, 3]);
        let junk = format!("v1.{}", URL_SAFE_NO_PAD.encode(&deflated));
        assert_eq!(decode(&junk), Err(LinkError::Damaged("bytes follow the end of the compressed data".into())));
        let unversioned = encode(&Scenario { version: 0, ..Scenario::default() });
        assert_eq!(decode(&unversioned), Err(LinkError::MixedVersions { link: 1, scenario: 0 }));
        let newer = encode(&Scenario { version: 3, ..Scenario::default() });
        assert_eq!(decode(&newer), Err(LinkError::FutureVersion(3)));
        // A link of this version holding a newer scenario: the scenario's version is read first.
        let json = br#"{"version": 3}"#;
        let inner = format!("v2.{}", URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(json, 9)));
        assert_eq!(decode(&inner), Err(LinkError::Invalid(ReadError::FutureVersion(3))));
    }

    #[test]
    fn a_truncated_link_is_damaged_not_wrong() {
        let scenario = crate::presets::all()[0].scenario().unwrap();
        let full = encode(&scenario);
        for cut in [full.len() - 1, full.len() - 5, full.len() / 2, 4] {
            assert!(decode(&full[..cut]).is_err(), "cut at {cut}");
        }
        assert_eq!(decode(&full).unwrap(), scenario);
    }

    #[test]
    fn oversized_links_are_refused_by_their_size() {
        // A 24 MB title deflates to a short link; inflating stops at the limit.
        let scenario = Scenario { title: "a".repeat(24 << 20), ..Scenario::default() };
        let fragment = encode(&scenario);
        assert!(fragment.len() < MAX_FRAGMENT, "{} characters", fragment.len());
        let started = std::time::Instant::now();
        assert_eq!(decode(&fragment), Err(LinkError::TooLarge));
        assert!(started.elapsed() < std::time::Duration::from_secs(2), "{:?}", started.elapsed());
        assert_eq!(decode(&format!("v1.{}", "A".repeat(MAX_FRAGMENT + 1))), Err(LinkError::TooLarge));
        // Under the limits, the title is still refused by validation, before anything is computed.
        let long_title = Scenario { title: "a".repeat(crate::validate::MAX_TITLE + 1), ..Scenario::default() };
        let decoded = decode(&encode(&long_title)).unwrap();
        assert_eq!(crate::validate::errors(&decoded)[0].message, "a title has at most 200 characters");
    }

    #[test]
    fn embed_links_and_iframes() {
        let scenario = Scenario { title: "A \"quoted\" <title>".into(), ..Scenario::default() };
        let link = url("https://example.org/play/", &scenario, true);
        assert!(link.starts_with("https://example.org/play/?embed#v1."));
        let snippet = iframe("https://example.org/play/?x=1", &scenario);
        assert!(snippet.contains("?x=1&amp;embed#v1."));
        assert!(snippet.contains("title=\"A &quot;quoted&quot; &lt;title&gt;\""));
    }
}
