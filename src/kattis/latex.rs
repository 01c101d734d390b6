//! A statement's Markdown as the LaTeX of a Kattis package (the legacy
//! format's `problem_statement/problem.en.tex`).
//!
//! The bundled statements use a small part of Markdown: headings,
//! paragraphs, lists, code (inline and fenced), emphasis, links and
//! `$…$` maths. Each becomes its plain LaTeX counterpart; text is escaped so
//! that no character of a statement is read as a LaTeX command. The title
//! (`# …`) becomes `\problemname`, and what problemtools writes itself is
//! left out: the lines before the first section (source and limits, which
//! `problem.yaml` carries) and the `Samples` section (problemtools shows
//! `data/sample` under the statement).

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// The section a package's statement leaves out (see the module doc).
const SAMPLES_SECTION: &str = "Samples";

/// The LaTeX statement of a Markdown one titled `title`.
pub fn statement(markdown: &str, title: &str) -> String {
    let options = Options::ENABLE_MATH | Options::ENABLE_STRIKETHROUGH;
    let mut out = format!("\\problemname{{{}}}\n\n", escape(title));
    // Whether the text being read is written out: not before the first
    // section, not inside the samples section.
    let mut writing = false;
    // The text of the heading being read.
    let mut heading: Option<String> = None;
    let mut in_code_block = false;
    for event in Parser::new_ext(markdown, options) {
        if let Some(text) = &mut heading {
            match event {
                Event::End(TagEnd::Heading(level)) => {
                    let text = std::mem::take(text);
                    heading = None;
                    match level {
                        HeadingLevel::H1 => {}
                        HeadingLevel::H2 => {
                            writing = text.trim() != SAMPLES_SECTION;
                            if writing {
                                out.push_str(&format!("\\section*{{{}}}\n\n", escape(&text)));
                            }
                        }
                        _ if writing => {
                            out.push_str(&format!("\\subsection*{{{}}}\n\n", escape(&text)));
                        }
                        _ => {}
                    }
                }
                Event::Text(t) | Event::Code(t) => text.push_str(&t),
                _ => {}
            }
            continue;
        }
        if let Event::Start(Tag::Heading { .. }) = event {
            heading = Some(String::new());
            continue;
        }
        if !writing {
            continue;
        }
        match event {
            Event::Start(Tag::Link { dest_url, .. }) => {
                out.push_str(&format!("\\href{{{}}}{{", escape_url(&dest_url)));
            }
            Event::Start(tag) => out.push_str(match tag {
                Tag::Paragraph => "",
                Tag::List(Some(_)) => "\\begin{enumerate}\n",
                Tag::List(None) => "\\begin{itemize}\n",
                Tag::Item => "\\item ",
                Tag::Emphasis => "\\emph{",
                Tag::Strong => "\\textbf{",
                Tag::Strikethrough => "\\sout{",
                Tag::CodeBlock(_) => {
                    in_code_block = true;
                    "\\begin{verbatim}\n"
                }
                Tag::BlockQuote(_) => "\\begin{quote}\n",
                _ => "",
            }),
            Event::End(tag) => out.push_str(match tag {
                TagEnd::Paragraph => "\n\n",
                TagEnd::List(true) => "\\end{enumerate}\n\n",
                TagEnd::List(false) => "\\end{itemize}\n\n",
                TagEnd::Item => "\n",
                TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough | TagEnd::Link => "}",
                TagEnd::CodeBlock => {
                    in_code_block = false;
                    "\\end{verbatim}\n\n"
                }
                TagEnd::BlockQuote(_) => "\\end{quote}\n\n",
                _ => "",
            }),
            Event::Text(text) if in_code_block => out.push_str(&text),
            Event::Text(text) => out.push_str(&escape(&text)),
            Event::Code(code) => out.push_str(&format!("\\texttt{{{}}}", escape(&code))),
            Event::InlineMath(tex) => out.push_str(&format!("${tex}$")),
            Event::DisplayMath(tex) => out.push_str(&format!("\\[{tex}\\]")),
            Event::SoftBreak => out.push('\n'),
            Event::HardBreak => out.push_str("\\\\\n"),
            Event::Rule => out.push_str("\\medskip\\hrule\\medskip\n\n"),
            // Raw HTML has no LaTeX meaning; its text is kept, escaped.
            Event::Html(html) | Event::InlineHtml(html) => out.push_str(&escape(&html)),
            _ => {}
        }
    }
    out
}

/// Text with every LaTeX special character written as itself.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '{' | '}' | '$' | '&' | '#' | '_' | '%' => {
                out.push('\\');
                out.push(c);
            }
            '^' => out.push_str("\\textasciicircum{}"),
            '~' => out.push_str("\\textasciitilde{}"),
            '<' => out.push_str("\\textless{}"),
            '>' => out.push_str("\\textgreater{}"),
            '|' => out.push_str("\\textbar{}"),
            _ => out.push(c),
        }
    }
    out
}

/// A link target as `\href` reads it (its `#`, `%` and `\` escaped).
fn escape_url(url: &str) -> String {
    let mut out = String::with_capacity(url.len());
    for c in url.chars() {
        if matches!(c, '#' | '%' | '\\' | '{' | '}') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_lists_code_and_maths_become_their_latex() {
        let tex = statement(
            "# Nim\n\nSource: x.\nTime limit: 2 s.\n\n## Rules\n\nTake *some* stones, **one** pile.\n\n\
             ## Input\n\n```\nN\nA_1 ... A_N\n```\n\n## Constraints\n\n- $1 \\le N \\le 10^5$\n- `A_i` & 50% #1\n\n\
             ## Samples\n\nThere is no official sample.\n\n## Notes\n\nSee <https://example.com/a_b#c>.\n",
            "Nim",
        );
        assert_eq!(
            tex,
            "\\problemname{Nim}\n\n\
             \\section*{Rules}\n\nTake \\emph{some} stones, \\textbf{one} pile.\n\n\
             \\section*{Input}\n\n\\begin{verbatim}\nN\nA_1 ... A_N\n\\end{verbatim}\n\n\
             \\section*{Constraints}\n\n\\begin{itemize}\n\\item $1 \\le N \\le 10^5$\n\
             \\item \\texttt{A\\_i} \\& 50\\% \\#1\n\\end{itemize}\n\n\
             \\section*{Notes}\n\nSee \\href{https://example.com/a_b\\#c}{https://example.com/a\\_b\\#c}.\n\n"
        );
    }

    #[test]
    fn no_character_of_the_text_is_read_as_a_command() {
        let tex = statement("# T\n\n## S\n\n\\input{x} ^ ~ {y} <b>|\n", "A_{b}");
        assert!(tex.starts_with("\\problemname{A\\_\\{b\\}}"), "{tex}");
        assert!(
            tex.contains("\\textbackslash{}input\\{x\\} \\textasciicircum{} \\textasciitilde{}"),
            "{tex}"
        );
        assert!(!tex.contains("\\input{"), "{tex}");
    }
}
