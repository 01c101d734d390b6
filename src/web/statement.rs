//! A problem statement's markdown rendered to HTML with pulldown-cmark.
//!
//! Statements come from `problems/<id>/statement.md`, but nothing here
//! trusts them: raw HTML in the markdown (blocks and inline tags) is shown
//! as escaped text, never passed through, and a link or image whose target
//! uses a scheme other than http, https or mailto (`javascript:`, `data:`)
//! loses its target. The rest is pulldown-cmark's own HTML writer, which
//! escapes text and attributes. Maths between dollars (`$1 \le N \le
//! 2 \cdot 10^5$`, `$$…$$` for a display) becomes MathML on the server
//! with pulldown-latex (Chromium and Firefox render MathML Core without a
//! script); see [`mathml`] for what is checked of its output. Plain-text
//! maths in prose (`A_i`, `10^18`) is set as sub- and superscripts (see
//! [`with_scripts`]).

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd, TextMergeStream, html};
use pulldown_latex::{RenderConfig, Storage, config::DisplayMode, mathml::push_mathml};

/// The statement as HTML, safe to embed in a page.
pub fn render(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_MATH;
    let mut in_code_block = false;
    let events = Parser::new_ext(markdown, options).map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
        Event::InlineMath(tex) => Event::InlineHtml(mathml(&tex, DisplayMode::Inline).into()),
        Event::DisplayMath(tex) => Event::InlineHtml(mathml(&tex, DisplayMode::Block).into()),
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) => Event::Start(Tag::Link {
            link_type,
            dest_url: safe_target(dest_url),
            title,
            id,
        }),
        Event::Start(Tag::Image {
            link_type,
            dest_url,
            title,
            id,
        }) => Event::Start(Tag::Image {
            link_type,
            dest_url: safe_target(dest_url),
            title,
            id,
        }),
        other => other,
    });
    // Sub- and superscripts in prose (`A_i`, `10^18`), never in code; text
    // the parser split (at a `_` that might have begun emphasis, at raw
    // HTML now text) is one event again first, so scripts are found whole.
    let events = TextMergeStream::new(events).flat_map(|event| {
        match &event {
            Event::Start(Tag::CodeBlock(_)) => in_code_block = true,
            Event::End(TagEnd::CodeBlock) => in_code_block = false,
            _ => {}
        }
        match event {
            Event::Text(text) if !in_code_block => with_scripts(&text),
            other => vec![other],
        }
    });
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, events);
    out
}

/// `text` with the statements' plain-text maths set as sub- and
/// superscripts: `A_i`, `s_{n-1}` (a one-letter name, then `_` and a word
/// or a braced group) and `10^18`, `2^k`, `2^{30}` (a number or a
/// one-letter name, then `^`). Anything else stays as it is (`abc255_g`,
/// `Nim_K`, `snake_case`). The scripts' text is escaped like any text.
fn with_scripts(text: &str) -> Vec<Event<'static>> {
    let mut events = Vec::new();
    let mut plain = 0;
    let mut at = 0;
    let bytes = text.as_bytes();
    while at < bytes.len() {
        let mark = bytes[at];
        if (mark == b'_' || mark == b'^')
            && let Some((script, end)) = script_after(text, at)
        {
            let base = &text[..at];
            let word_start = base
                .char_indices()
                .rev()
                .find(|(_, c)| !c.is_ascii_alphanumeric())
                .map_or(0, |(i, c)| i + c.len_utf8());
            let word = &base[word_start..];
            let base_fits = match mark {
                b'_' => word.len() == 1 && word.as_bytes()[0].is_ascii_alphabetic(),
                _ => {
                    (word.len() == 1 && word.as_bytes()[0].is_ascii_alphabetic())
                        || (!word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()))
                }
            };
            if base_fits {
                if plain < at {
                    events.push(Event::Text(CowStr::from(text[plain..at].to_string())));
                }
                let tag = if mark == b'_' { "sub" } else { "sup" };
                events.push(Event::InlineHtml(CowStr::from(format!("<{tag}>"))));
                events.push(Event::Text(CowStr::from(script.to_string())));
                events.push(Event::InlineHtml(CowStr::from(format!("</{tag}>"))));
                plain = end;
                at = end;
                continue;
            }
        }
        at += 1;
    }
    if plain < text.len() {
        events.push(Event::Text(CowStr::from(text[plain..].to_string())));
    }
    events
}

/// The script after the `_` or `^` at `at`: a braced group's inside (no
/// nesting) or a run of ASCII letters and digits; and where it ends.
fn script_after(text: &str, at: usize) -> Option<(&str, usize)> {
    let rest = &text[at + 1..];
    let (script, taken) = if let Some(group) = rest.strip_prefix('{') {
        let close = group.find('}')?;
        (&group[..close], close + 2)
    } else {
        let run = rest
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(rest.len());
        (&rest[..run], run)
    };
    (!script.is_empty()).then_some((script, at + 1 + taken))
}

/// A statement as the problem page shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageStatement {
    /// The HTML, without the `Source:` and `Time limit:` lines of the
    /// statement's head (before its first `## ` section): the page shows
    /// the problem's source and limits above it, from `problem.toml`.
    pub html: String,
    /// The statement has a samples section of its own (`## Sample…`),
    /// with outputs, so the page adds none.
    pub has_samples: bool,
}

/// [`render`] for the problem page (see [`PageStatement`]).
pub fn for_page(markdown: &str) -> PageStatement {
    let mut in_head = true;
    let mut kept = String::with_capacity(markdown.len());
    let mut has_samples = false;
    for line in markdown.split_inclusive('\n') {
        if let Some(heading) = line.strip_prefix("## ") {
            in_head = false;
            has_samples |= heading.trim_start().starts_with("Sample");
        }
        if in_head && (line.starts_with("Source:") || line.starts_with("Time limit:")) {
            continue;
        }
        kept.push_str(line);
    }
    PageStatement {
        html: render(&kept),
        has_samples,
    }
}

/// The MathML elements pulldown-latex writes.
const MATHML_ELEMENTS: &[&str] = &[
    "math",
    "mi",
    "mn",
    "mo",
    "ms",
    "mtext",
    "mspace",
    "mrow",
    "msub",
    "msup",
    "msubsup",
    "mfrac",
    "mroot",
    "msqrt",
    "munder",
    "mover",
    "munderover",
    "mtable",
    "mtr",
    "mtd",
    "merror",
    "semantics",
    "annotation",
    "mstyle",
    "mpadded",
    "mphantom",
    "menclose",
];

/// The attributes it writes on them (each value its own: a number, a
/// keyword, a colour).
const MATHML_ATTRIBUTES: &[&str] = &[
    "class",
    "depth",
    "display",
    "displaystyle",
    "encoding",
    "height",
    "largeop",
    "linethickness",
    "mathvariant",
    "maxsize",
    "minsize",
    "movablelimits",
    "scriptlevel",
    "stretchy",
    "style",
    "symmetric",
    "width",
    "xmlns",
    "lspace",
    "rspace",
    "form",
    "accent",
    "accentunder",
    "columnalign",
];

/// `tex` as MathML, or its source as code when the MathML is not what this
/// page accepts.
///
/// pulldown-latex escapes the text it writes (`\text{…}`) but not an
/// operator of one character: `$a<b$` comes out as `<mo><</mo>`. So its
/// output is read again here: a `<` that does not open a tag, a `>` outside
/// one and an `&` that does not begin an entity are escaped; every tag must
/// be one of [`MATHML_ELEMENTS`] with attributes of [`MATHML_ATTRIBUTES`]
/// only, whose values hold no quote or markup; anything else, and a failed
/// write, shows the formula's source instead.
fn mathml(tex: &str, display_mode: DisplayMode) -> String {
    let storage = Storage::new();
    let parser = pulldown_latex::Parser::new(tex, &storage);
    let config = RenderConfig {
        display_mode,
        ..RenderConfig::default()
    };
    let mut raw = String::new();
    push_mathml(&mut raw, parser, config)
        .ok()
        .and_then(|()| checked_mathml(&raw))
        .unwrap_or_else(|| maud::html! { code { (tex) } }.into_string())
}

/// `raw` with its stray `<`, `>` and `&` escaped, if every tag in it is an
/// accepted one (see [`mathml`]).
fn checked_mathml(raw: &str) -> Option<String> {
    let mut out = String::with_capacity(raw.len() + 16);
    let mut rest = raw;
    while let Some(c) = rest.chars().next() {
        let after = &rest[c.len_utf8()..];
        match c {
            '<' if after.starts_with(|n: char| n.is_ascii_alphabetic() || n == '/') => {
                let end = rest.find('>')?;
                accepted_tag(&rest[1..end])?;
                out.push_str(&rest[..=end]);
                rest = &rest[end + 1..];
                continue;
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => {
                let entity = after.find(';').filter(|&end| {
                    end > 0
                        && after[..end]
                            .chars()
                            .all(|e| e.is_ascii_alphanumeric() || e == '#')
                });
                match entity {
                    Some(end) => {
                        out.push_str(&rest[..end + 2]);
                        rest = &after[end + 1..];
                        continue;
                    }
                    None => out.push_str("&amp;"),
                }
            }
            '"' => out.push_str("&quot;"),
            other => out.push(other),
        }
        rest = after;
    }
    Some(out)
}

/// The inside of a tag (`mo stretchy="false"`, `/mo`), if accepted.
fn accepted_tag(tag: &str) -> Option<()> {
    let tag = tag.strip_prefix('/').unwrap_or(tag);
    let tag = tag.strip_suffix('/').unwrap_or(tag);
    let (name, mut attributes) = tag.split_once(' ').unwrap_or((tag, ""));
    if !MATHML_ELEMENTS.contains(&name) {
        return None;
    }
    loop {
        attributes = attributes.trim_start();
        if attributes.is_empty() {
            return Some(());
        }
        let (attribute, value) = attributes.split_once("=\"")?;
        let (value, next) = value.split_once('"')?;
        if !MATHML_ATTRIBUTES.contains(&attribute) || value.contains(['<', '>', '&', '\'']) {
            return None;
        }
        attributes = next;
    }
}

/// A link target with a scheme other than http, https or mailto becomes
/// empty; relative targets and fragments stay.
fn safe_target(target: CowStr<'_>) -> CowStr<'_> {
    let scheme = target
        .split_once(':')
        .map(|(scheme, _)| scheme)
        .filter(|scheme| !scheme.contains(['/', '?', '#']));
    match scheme {
        None => target,
        Some(scheme)
            if ["http", "https", "mailto"]
                .iter()
                .any(|safe| scheme.trim().eq_ignore_ascii_case(safe)) =>
        {
            target
        }
        Some(_) => CowStr::Borrowed(""),
    }
}

#[cfg(test)]
mod tests {
    use super::{DisplayMode, PageStatement, checked_mathml, for_page, mathml, render};

    #[test]
    fn plain_text_maths_becomes_sub_and_superscripts_outside_code() {
        let html = render(
            "1 ≤ A_i ≤ 10^18, s_{n-1} and 2^{30}, 2^k.\n\n\
             Not abc255_g, Nim_K, snake_case or `A_i`; nor x_ or 10^.\n\n```\ns_1 10^9\n```\n",
        );
        assert!(
            html.contains("1 ≤ A<sub>i</sub> ≤ 10<sup>18</sup>, s<sub>n-1</sub> and 2<sup>30</sup>, 2<sup>k</sup>."),
            "{html}"
        );
        assert!(
            html.contains("Not abc255_g, Nim_K, snake_case or <code>A_i</code>; nor x_ or 10^."),
            "{html}"
        );
        assert!(
            html.contains("<pre><code>s_1 10^9\n</code></pre>"),
            "{html}"
        );
        // A script's text is escaped like any text.
        assert!(render("x_{<b>}").contains("x<sub>&lt;b&gt;</sub>"));
        // After a character of several bytes.
        assert!(render("1 ≤ N ≤ 2·10^5, ·A_i").contains("2·10<sup>5</sup>, ·A<sub>i</sub>"));
    }

    #[test]
    fn maths_between_dollars_becomes_mathml_with_every_text_escaped() {
        let html =
            render("Constraints: $1 \\le N \\le 2 \\cdot 10^5$ and\n\n$$A_i < B > C \\& D$$\n");
        assert!(html.contains("<math"), "{html}");
        assert!(
            html.contains("<msup><mn>10</mn><mn>5</mn></msup>"),
            "{html}"
        );
        assert!(html.contains(r#"display="block""#), "{html}");
        assert!(html.contains("<mo>&lt;</mo>"), "the `<` is escaped: {html}");
        assert!(
            html.contains("&gt;") && !html.contains("<mo>></mo>"),
            "{html}"
        );
        // Whatever the maths holds, no markup of its own gets through:
        // text, unknown commands and errors alike.
        for tex in [
            r"$\text{<script>alert(1)</script>}$",
            r"$<img src=x onerror=alert(1)>$",
            r"$\operatorname{<b>x</b>}$",
            r"$\mathrm{<b>}$",
            r"$\unknowncommand{<b>}$",
            r"$x^{$",
            r#"$\href{javascript:alert(1)}{x}$"#,
            r"$a </mo><script>alert(1)</script>$",
        ] {
            let html = render(tex);
            for forbidden in ["<script", "<img", "<b>", "href=", "onerror="] {
                assert!(!html.contains(forbidden), "{tex}: {html}");
            }
        }
        // Dollars in code stay as they are.
        assert!(render("`$x$`").contains("<code>$x$</code>"));
    }

    #[test]
    fn mathml_with_a_foreign_tag_or_attribute_shows_its_source_instead() {
        assert_eq!(
            checked_mathml("<mo><</mo>").as_deref(),
            Some("<mo>&lt;</mo>")
        );
        assert_eq!(
            checked_mathml("<mi>a&b&amp;</mi>").as_deref(),
            Some("<mi>a&amp;b&amp;</mi>")
        );
        assert!(checked_mathml("<script>x</script>").is_none());
        assert!(checked_mathml(r#"<mi onclick="x">a</mi>"#).is_none());
        assert!(checked_mathml(r#"<mi class="a<b">a</mi>"#).is_none());
        assert!(checked_mathml("<mi").is_none());
        assert!(mathml("x", DisplayMode::Inline).starts_with("<math"));
    }

    #[test]
    fn every_bundled_statement_renders() {
        let problems = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
        let mut rendered = 0;
        for entry in std::fs::read_dir(problems).expect("the problems folder") {
            let statement = entry.expect("an entry").path().join("statement.md");
            if let Ok(markdown) = std::fs::read_to_string(&statement) {
                let page = for_page(&markdown);
                assert!(page.html.contains("<h1>"), "{}", statement.display());
                rendered += 1;
            }
        }
        assert!(rendered >= 12, "{rendered} statements");
    }

    #[test]
    fn the_page_drops_the_heads_source_and_limits_and_notes_its_samples() {
        let markdown = "# Nim\n\nSource: somewhere — https://example.com\nTime limit: 2 s. Memory limit: 512 MiB.\n\n\
                        ## Rules\n\nTime limit: stays in a section.\n\n## Samples\n\n```\n1\n```\n";
        let page = for_page(markdown);
        assert!(page.has_samples);
        assert!(!page.html.contains("Source:"), "{}", page.html);
        assert!(!page.html.contains("Memory limit"), "{}", page.html);
        assert!(page.html.contains("<h1>Nim</h1>"), "{}", page.html);
        assert!(
            page.html.contains("Time limit: stays in a section."),
            "{}",
            page.html
        );
        assert_eq!(
            for_page("# Nim\n"),
            PageStatement {
                html: "<h1>Nim</h1>\n".into(),
                has_samples: false
            }
        );
    }

    #[test]
    fn markdown_becomes_html() {
        let html = render("# Nim\n\nTake **stones**.\n\n```\n3\n1 2 3\n```\n");
        assert!(html.contains("<h1>Nim</h1>"), "{html}");
        assert!(html.contains("<strong>stones</strong>"), "{html}");
        assert!(
            html.contains("<pre><code>3\n1 2 3\n</code></pre>"),
            "{html}"
        );
    }

    #[test]
    fn raw_html_is_escaped_not_passed_through() {
        let html = render("<script>alert(1)</script>\n\nText <img src=x onerror=alert(2)> here\n");
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(
            html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{html}"
        );
        assert!(
            html.contains("&lt;img src=x onerror=alert(2)&gt;"),
            "{html}"
        );
    }

    #[test]
    fn only_safe_link_schemes_keep_their_target() {
        let html = render(
            "[a](javascript:alert(1)) [c](data:text/html,x) \
             [d](https://example.org/x) [e](#samples) [f](other.md) ![g](data:image/png,x)",
        );
        assert!(!html.to_lowercase().contains("javascript"), "{html}");
        assert!(!html.contains("data:"), "{html}");
        assert!(html.contains(r#"href="https://example.org/x""#), "{html}");
        assert!(html.contains(r##"href="#samples""##), "{html}");
        assert!(html.contains(r#"href="other.md""#), "{html}");
    }
}
