//! Statements between Markdown and the LaTeX of a Kattis package (the
//! legacy format's `problem_statement/problem.en.tex`), both ways.
//!
//! Out ([`statement`]): the bundled statements use a small part of
//! Markdown: headings, paragraphs, lists, code (inline and fenced),
//! emphasis, links and `$…$` maths. Each becomes its plain LaTeX
//! counterpart; text is escaped so that no character of a statement is read
//! as a LaTeX command. The title (`# …`) becomes `\problemname`, and what
//! problemtools writes itself is left out: the lines before the first
//! section (source and limits, which `problem.yaml` carries) and the
//! `Samples` section (problemtools shows `data/sample` under the statement).
//!
//! In ([`markdown`]): the LaTeX that statements of packages are written in
//! read back into that part of Markdown: what [`statement`] writes, plus the
//! commands problemtools' statements commonly use (`\section`, `\textit`,
//! `\url`, display maths environments, `description` lists, figures'
//! captions). A command outside it loses itself and keeps its arguments'
//! text; Markdown's own characters in the text are escaped, so the text
//! reads as it did.

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

/// A package's LaTeX statement as Markdown: the title its `\problemname`
/// gives, and the body (see the module doc).
pub fn markdown(tex: &str) -> (Option<String>, String) {
    let mut reader = TexReader {
        tex: tex.chars().collect(),
        at: 0,
        out: String::new(),
        plain: false,
        lists: Vec::new(),
        title: None,
    };
    reader.read_until(Stop::End);
    let mut body = String::new();
    let mut blank_lines = 0;
    for line in reader.out.trim().lines() {
        if line.trim().is_empty() {
            blank_lines += 1;
            if blank_lines > 1 {
                continue;
            }
            body.push('\n');
        } else {
            blank_lines = 0;
            body.push_str(line.trim_end_matches([' ', '\t']));
            body.push('\n');
        }
    }
    (reader.title, body)
}

/// Where a run of LaTeX being read ends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stop<'a> {
    /// The end of the statement.
    End,
    /// The `}` that closes the group being read.
    Brace,
    /// The environment's end, `\end{name}` (read with it).
    Environment(&'a str),
}

/// A list being read: its items' marker.
#[derive(Clone, Copy)]
enum ListKind {
    Bullets,
    Numbers,
    Labels,
}

impl ListKind {
    fn marker(self) -> &'static str {
        match self {
            ListKind::Bullets | ListKind::Labels => "- ",
            ListKind::Numbers => "1. ",
        }
    }
}

/// Commands dropped with their arguments: layout, pictures, macros.
const DROPPED: [(&str, usize); 14] = [
    ("includegraphics", 1),
    ("illustration", 3),
    ("label", 1),
    ("vspace", 1),
    ("hspace", 1),
    ("usepackage", 1),
    ("documentclass", 1),
    ("newcommand", 2),
    ("renewcommand", 2),
    ("setlength", 2),
    ("input", 1),
    ("include", 1),
    ("ref", 1),
    ("cite", 1),
];

/// Display maths environments, kept as `$$…$$` (those that align, inside
/// `aligned`).
const DISPLAY_MATHS: [&str; 8] = [
    "equation",
    "equation*",
    "displaymath",
    "gather",
    "gather*",
    "align",
    "align*",
    "eqnarray",
];

/// Reads LaTeX into Markdown, left to right.
struct TexReader {
    tex: Vec<char>,
    at: usize,
    out: String,
    /// Whether text is written as it is (inside code and titles) rather
    /// than with Markdown's characters escaped.
    plain: bool,
    lists: Vec<ListKind>,
    title: Option<String>,
}

impl TexReader {
    fn peek(&self) -> Option<char> {
        self.tex.get(self.at).copied()
    }

    fn rest_starts_with(&self, s: &str) -> bool {
        (self.at..)
            .zip(s.chars())
            .all(|(at, c)| self.tex.get(at) == Some(&c))
    }

    /// The indentation of a line inside the lists being read.
    fn indent(&self) -> String {
        " ".repeat(self.lists.iter().map(|l| l.marker().len()).sum())
    }

    fn at_line_start(&self) -> bool {
        let line = self.out.rsplit('\n').next().unwrap_or("");
        line.trim().is_empty()
    }

    /// Writes Markdown, indenting a new line inside a list.
    fn write(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        if !self.lists.is_empty() && self.out.ends_with('\n') {
            let indent = self.indent();
            self.out.push_str(&indent);
        }
        self.out.push_str(s);
    }

    fn end_line(&mut self) {
        let kept = self.out.trim_end_matches([' ', '\t']).len();
        self.out.truncate(kept);
        if !self.out.is_empty() && !self.out.ends_with('\n') {
            self.out.push('\n');
        }
    }

    fn end_paragraph(&mut self) {
        self.end_line();
        if !self.out.is_empty() && !self.out.ends_with("\n\n") {
            self.out.push('\n');
        }
    }

    /// Writes one character of text.
    fn text(&mut self, c: char) {
        if self.plain {
            self.write(c.encode_utf8(&mut [0; 4]));
            return;
        }
        let line_start = self.at_line_start();
        let escaped = match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '$' | '~' | '|' => true,
            '&' => self
                .peek()
                .is_some_and(|n| n.is_ascii_alphabetic() || n == '#'),
            '#' | '>' | '-' | '+' | '=' => line_start,
            '.' | ')' => {
                let line = self.out.rsplit('\n').next().unwrap_or("").trim_start();
                !line.is_empty() && line.chars().all(|d| d.is_ascii_digit())
            }
            _ => false,
        };
        if escaped {
            self.write("\\");
            self.out.push(c);
        } else {
            self.write(c.encode_utf8(&mut [0; 4]));
        }
    }

    /// Reads to `stop`, writing Markdown.
    fn read_until(&mut self, stop: Stop) {
        while let Some(c) = self.peek() {
            if let Stop::Environment(end) = stop
                && self.rest_starts_with(end)
            {
                self.at += end.chars().count();
                return;
            }
            self.at += 1;
            match c {
                '}' if stop == Stop::Brace => return,
                '{' => self.read_until(Stop::Brace),
                '}' => {}
                '\\' => self.command(),
                '%' => {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.at += 1;
                    }
                    self.at += 1;
                    self.skip_spaces();
                }
                '$' => {
                    let display = self.peek() == Some('$');
                    if display {
                        self.at += 1;
                        let maths = self.raw_until("$$");
                        self.write(&format!("$${maths}$$"));
                    } else {
                        let maths = self.raw_until("$");
                        self.write(&format!("${}$", maths.trim()));
                    }
                }
                '\n' => self.newline(),
                ' ' | '\t' | '\r' => {
                    self.skip_spaces();
                    if !self.at_line_start() && !self.out.ends_with(' ') {
                        self.write(" ");
                    }
                }
                '~' => self.write(" "),
                '&' => self.write(" "),
                _ => self.text(c),
            }
        }
    }

    /// A line's end in the text: a soft break, or a paragraph's end where
    /// a blank line follows.
    fn newline(&mut self) {
        let mut newlines = 1;
        while let Some(c) = self.peek() {
            match c {
                '\n' => newlines += 1,
                ' ' | '\t' | '\r' => {}
                _ => break,
            }
            self.at += 1;
        }
        if newlines > 1 {
            self.end_paragraph();
        } else {
            self.end_line();
        }
    }

    fn skip_spaces(&mut self) {
        while self
            .peek()
            .is_some_and(|c| c == ' ' || c == '\t' || c == '\r')
        {
            self.at += 1;
        }
    }

    /// Skips the spaces after a command's name, and one line's end.
    fn skip_after_name(&mut self) {
        self.skip_spaces();
        if self.peek() == Some('\n') && !self.next_line_is_blank() {
            self.at += 1;
            self.skip_spaces();
        }
    }

    fn next_line_is_blank(&self) -> bool {
        let mut at = self.at + 1;
        while let Some(&c) = self.tex.get(at) {
            match c {
                '\n' => return true,
                ' ' | '\t' | '\r' => at += 1,
                _ => return false,
            }
        }
        true
    }

    /// The text up to `end` as it is, with `end` read.
    fn raw_until(&mut self, end: &str) -> String {
        let mut raw = String::new();
        while self.peek().is_some() && !self.rest_starts_with(end) {
            let c = self.tex[self.at];
            raw.push(c);
            self.at += 1;
            // An escaped character never ends the run.
            if c == '\\'
                && let Some(next) = self.peek()
            {
                raw.push(next);
                self.at += 1;
            }
        }
        self.at = (self.at + end.chars().count()).min(self.tex.len());
        raw
    }

    /// Skips `[…]` when it comes next.
    fn optional_argument(&mut self) -> Option<String> {
        self.skip_spaces();
        if self.peek() != Some('[') {
            return None;
        }
        self.at += 1;
        Some(self.raw_until("]"))
    }

    /// The next `{…}` group as it is (its braces balanced).
    fn raw_group(&mut self) -> String {
        self.skip_spaces();
        if self.peek() != Some('{') {
            return String::new();
        }
        self.at += 1;
        let mut depth = 1;
        let mut raw = String::new();
        while let Some(c) = self.peek() {
            self.at += 1;
            match c {
                '\\' => {
                    raw.push(c);
                    if let Some(next) = self.peek() {
                        raw.push(next);
                        self.at += 1;
                    }
                    continue;
                }
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            raw.push(c);
        }
        raw
    }

    /// The next `{…}` group read into Markdown on its own (as text as it is
    /// when `plain`).
    fn group(&mut self, plain: bool) -> String {
        self.skip_spaces();
        if self.peek() != Some('{') {
            return String::new();
        }
        self.at += 1;
        let out = std::mem::take(&mut self.out);
        let lists = std::mem::take(&mut self.lists);
        let was_plain = std::mem::replace(&mut self.plain, plain);
        self.read_until(Stop::Brace);
        self.plain = was_plain;
        self.lists = lists;
        std::mem::replace(&mut self.out, out)
    }

    /// Writes the next group wrapped in `mark` (emphasis and the like).
    fn marked_group(&mut self, mark: &str) {
        let inner = self.group(false);
        let inner = inner.trim();
        if !inner.is_empty() {
            self.write(&format!("{mark}{inner}{mark}"));
        }
    }

    /// Reads the command after a `\`.
    fn command(&mut self) {
        let Some(first) = self.peek() else {
            self.text('\\');
            return;
        };
        self.at += 1;
        if !first.is_ascii_alphabetic() {
            match first {
                '\\' => {
                    self.optional_argument();
                    self.write("\\");
                    self.end_line();
                    self.skip_spaces();
                    if self.peek() == Some('\n') {
                        self.at += 1;
                        self.skip_spaces();
                    }
                }
                '[' => {
                    let maths = self.raw_until("\\]");
                    self.write(&format!("$${maths}$$"));
                }
                '(' => {
                    let maths = self.raw_until("\\)");
                    self.write(&format!("${}$", maths.trim()));
                }
                ' ' | ',' | ';' | ':' | '\n' => self.write(" "),
                '-' | '@' | '/' | '!' => {}
                _ => self.text(first),
            }
            return;
        }
        let mut name = first.to_string();
        while let Some(c) = self.peek().filter(char::is_ascii_alphabetic) {
            name.push(c);
            self.at += 1;
        }
        if self.peek() == Some('*') {
            self.at += 1;
        }
        self.skip_after_name();
        let symbol = match name.as_str() {
            "textbackslash" => Some('\\'),
            "textasciicircum" => Some('^'),
            "textasciitilde" => Some('~'),
            "textless" => Some('<'),
            "textgreater" => Some('>'),
            "textbar" => Some('|'),
            "textunderscore" => Some('_'),
            "ldots" | "dots" => Some('…'),
            "textendash" => Some('–'),
            "textemdash" => Some('—'),
            _ => None,
        };
        if let Some(symbol) = symbol {
            if self.rest_starts_with("{}") {
                self.at += 2;
            }
            self.text(symbol);
            return;
        }
        if let Some((_, arguments)) = DROPPED.iter().find(|(n, _)| *n == name) {
            self.optional_argument();
            for _ in 0..*arguments {
                self.raw_group();
                self.optional_argument();
            }
            return;
        }
        match name.as_str() {
            "problemname" => {
                let title = self.group(true);
                self.title = Some(title.split_whitespace().collect::<Vec<_>>().join(" "));
            }
            "section" | "subsection" | "subsubsection" | "paragraph" => {
                let level = match name.as_str() {
                    "section" => "##",
                    "subsection" => "###",
                    _ => "####",
                };
                self.optional_argument();
                let heading = self.group(false);
                let heading = heading.split_whitespace().collect::<Vec<_>>().join(" ");
                self.lists.clear();
                self.end_paragraph();
                self.out.push_str(&format!("{level} {heading}\n\n"));
            }
            "emph" | "textit" | "textsl" => self.marked_group("*"),
            "textbf" => self.marked_group("**"),
            "sout" => self.marked_group("~~"),
            "texttt" | "verb" => {
                let code = if name == "verb" {
                    match self.peek() {
                        Some(delimiter) => {
                            self.at += 1;
                            self.raw_until(&delimiter.to_string())
                        }
                        None => String::new(),
                    }
                } else {
                    self.group(true)
                };
                let fence = if code.contains('`') { "``" } else { "`" };
                let pad = if code.starts_with('`') || code.ends_with('`') {
                    " "
                } else {
                    ""
                };
                self.write(&format!("{fence}{pad}{code}{pad}{fence}"));
            }
            "href" => {
                let url = unescape_url(&self.raw_group());
                let text = self.group(false);
                let text = text.trim();
                if text.replace('\\', "") == url && !url.contains(char::is_whitespace) {
                    self.write(&format!("<{url}>"));
                } else {
                    self.write(&format!("[{text}]({})", link_destination(&url)));
                }
            }
            "url" => {
                let url = unescape_url(&self.raw_group());
                self.write(&format!("<{url}>"));
            }
            "item" => {
                let label = self.optional_argument();
                self.end_line();
                if !self.out.is_empty() && !self.out.ends_with('\n') {
                    self.out.push('\n');
                }
                let kind = self.lists.pop().unwrap_or(ListKind::Bullets);
                let indent = self.indent();
                self.out.push_str(&indent);
                self.out.push_str(kind.marker());
                self.lists.push(kind);
                if let Some(label) = label {
                    self.write(&format!("**{}** ", label.trim()));
                }
                self.skip_spaces();
            }
            "hrule" => {
                self.end_paragraph();
                self.write("---");
                self.end_paragraph();
            }
            "par" => self.end_paragraph(),
            "newline" | "linebreak" => {
                self.write("\\");
                self.end_line();
            }
            "begin" => self.begin(),
            // An environment's end out of place.
            "end" => {
                self.raw_group();
            }
            // A command nimjudge does not know: itself dropped, its
            // arguments (read next, as groups) kept.
            _ => {}
        }
    }

    /// Reads an environment, from after its `\begin`.
    fn begin(&mut self) {
        let name = self.raw_group();
        let list = match name.as_str() {
            "itemize" => Some(ListKind::Bullets),
            "enumerate" => Some(ListKind::Numbers),
            "description" => Some(ListKind::Labels),
            _ => None,
        };
        if let Some(kind) = list {
            self.end_line();
            self.lists.push(kind);
            self.read_environment(&name);
            self.lists.pop();
            self.end_paragraph();
            return;
        }
        if matches!(name.as_str(), "verbatim" | "lstlisting" | "Verbatim") {
            self.optional_argument();
            if self.peek() == Some('\n') {
                self.at += 1;
            }
            let code = self.raw_verbatim(&format!("\\end{{{name}}}"));
            let fence = if code.contains("```") { "~~~~" } else { "```" };
            self.end_paragraph();
            let mut block = format!("{fence}\n");
            for line in code.lines() {
                block.push_str(line);
                block.push('\n');
            }
            block.push_str(fence);
            for line in block.lines() {
                self.write(line);
                self.out.push('\n');
            }
            self.end_paragraph();
            return;
        }
        if DISPLAY_MATHS.contains(&name.as_str()) {
            let maths = self.raw_verbatim(&format!("\\end{{{name}}}"));
            let maths = maths.trim();
            if name.starts_with("align") || name.starts_with("eqnarray") {
                self.write(&format!("$$\\begin{{aligned}}{maths}\\end{{aligned}}$$"));
            } else {
                self.write(&format!("$${maths}$$"));
            }
            return;
        }
        if name != "document" {
            self.end_paragraph();
        }
        match name.as_str() {
            "tabular" | "minipage" | "figure" | "table" | "wrapfigure" => {
                self.optional_argument();
                if name != "figure" && name != "table" {
                    self.raw_group();
                }
            }
            _ => {}
        }
        self.read_environment(&name);
        if name != "document" {
            self.end_paragraph();
        }
    }

    /// Reads the inside of an environment to its `\end{name}`.
    fn read_environment(&mut self, name: &str) {
        let end = format!("\\end{{{name}}}");
        self.read_until(Stop::Environment(&end));
    }

    /// The text up to `end` as it is (no escape read), with `end` read.
    fn raw_verbatim(&mut self, end: &str) -> String {
        let mut raw = String::new();
        while self.peek().is_some() && !self.rest_starts_with(end) {
            raw.push(self.tex[self.at]);
            self.at += 1;
        }
        self.at = (self.at + end.chars().count()).min(self.tex.len());
        raw
    }
}

/// A `\href` or `\url` target as written (its escapes read).
fn unescape_url(raw: &str) -> String {
    let mut url = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => url.extend(chars.next()),
            _ => url.push(c),
        }
    }
    url.trim().to_owned()
}

/// A link target as Markdown's `(…)` reads it.
fn link_destination(url: &str) -> String {
    if url.contains(|c: char| c.is_whitespace() || "()<>\\".contains(c)) {
        format!("<{}>", url.replace('<', "%3C").replace('>', "%3E"))
    } else {
        url.to_owned()
    }
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

    /// Every bundled statement written out and read back writes out the
    /// same: what [`statement`] writes, [`markdown`] reads whole.
    #[test]
    fn every_bundled_statement_reads_back_to_the_same_latex() {
        let problems = concat!(env!("CARGO_MANIFEST_DIR"), "/problems");
        let mut read = 0;
        for entry in std::fs::read_dir(problems).expect("the problems folder") {
            let folder = entry.expect("an entry").path();
            let text = std::fs::read_to_string(folder.join("statement.md")).expect("a statement");
            let title = text
                .lines()
                .next()
                .and_then(|l| l.strip_prefix("# "))
                .expect("a title");
            let tex = statement(&text, title);
            let (read_title, body) = markdown(&tex);
            assert_eq!(read_title.as_deref(), Some(title), "{}", folder.display());
            let again = statement(&format!("# {title}\n\n{body}"), title);
            assert_eq!(again, tex, "{}:\n{body}", folder.display());
            read += 1;
        }
        assert_eq!(read, 24);
    }

    #[test]
    fn a_package_statement_reads_as_markdown() {
        let tex = "\\problemname{Take  One}\n% a comment\nAlice has $n$ stones \\textsc{x}; she takes\n  \\emph{one} or \\textbf{three}~of them.\n\n\
                   \\section*{Input}\nOne integer $n$ ($1 \\le n \\le 10^{18}$), 5\\% \\& *more* a\\_b [c] <d>\\\\\nnext.\n\
                   \\begin{itemize}\n  \\item first \\texttt{A\\_1}\n  \\item[Note] labelled\n  \\begin{enumerate}\n  \\item inner\n  \\end{enumerate}\n\\end{itemize}\n\
                   \\begin{verbatim}\n3\n  1 2 %3\n\\end{verbatim}\n\\[ \\sum a_i \\]\n\
                   \\subsection{Links}\nSee \\href{https://x.org/a\\#b}{the site}, \\url{https://y.org/}.\n\
                   \\begin{figure}[h]\\includegraphics[width=3cm]{pile.png}\\caption{A pile.}\\end{figure}\n\
                   1. not a list\n# nor a heading\n";
        let (title, body) = markdown(tex);
        assert_eq!(title.as_deref(), Some("Take One"));
        assert_eq!(
            body,
            "Alice has $n$ stones x; she takes\n*one* or **three** of them.\n\n\
             ## Input\n\nOne integer $n$ ($1 \\le n \\le 10^{18}$), 5% & \\*more\\* a\\_b \\[c\\] \\<d>\\\nnext.\n\
             - first `A_1`\n- **Note** labelled\n  1. inner\n\n\
             ```\n3\n  1 2 %3\n```\n\n$$ \\sum a_i $$\n\n### Links\n\n\
             See [the site](https://x.org/a#b), <https://y.org/>.\n\nA pile.\n\n\
             1\\. not a list\n\\# nor a heading\n"
        );
    }
}
