//! A problem statement's markdown rendered to HTML with pulldown-cmark.
//!
//! Statements come from `problems/<id>/statement.md`, but nothing here
//! trusts them: raw HTML in the markdown (blocks and inline tags) is shown
//! as escaped text, never passed through, and a link or image whose target
//! uses a scheme other than http, https or mailto (`javascript:`, `data:`)
//! loses its target. The rest is pulldown-cmark's own HTML writer, which
//! escapes text and attributes.

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, html};

/// The statement as HTML, safe to embed in a page.
pub fn render(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let events = Parser::new_ext(markdown, options).map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
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
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, events);
    out
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
    use super::{PageStatement, for_page, render};

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
