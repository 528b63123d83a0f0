//! The HTML report (`--format html`): one self-contained file with the Markdown report's
//! sections, its charts inline as SVG and its CSS inline. No font and no external reference (one
//! inline line of script opens the folded tables for printing): it opens offline and can be
//! mailed.
//!
//! Flow: the Markdown renderer writes the report with each chart linked under a placeholder
//! directory; pulldown-cmark turns it into HTML events, in which each chart link becomes the
//! chart's SVG, each per-tier comparison table (a table whose first column is `Tier`) is folded
//! into a `<details>` element, and raw HTML from the text (a file named `<b>.html`) is escaped as
//! text. The events are written inside a page with a print stylesheet for A4.

use std::io::{self, Write};

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};

use crate::pipeline::Run;
use crate::report::chart_files::ChartFile;

/// The placeholder directory chart links carry between the two passes.
const CHART_DIR: &str = "sizer-inline-chart";

/// The page's stylesheet: readable on screen, tables scroll sideways, A4 when printed.
const CSS: &str = r#"
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; font-size: 14px;
  line-height: 1.45; color: #1f2328; max-width: 1200px; margin: 1.5em auto; padding: 0 1em; }
h1 { font-size: 1.6em; border-bottom: 2px solid #d0d7de; padding-bottom: .2em; }
h2 { font-size: 1.3em; border-bottom: 1px solid #d0d7de; padding-bottom: .15em; margin-top: 1.6em; }
h3 { font-size: 1.1em; margin-top: 1.3em; }
table { border-collapse: collapse; margin: .6em 0; font-size: 12.5px; display: block; overflow-x: auto; }
th, td { border: 1px solid #d0d7de; padding: 3px 7px; vertical-align: top; }
th { background: #f6f8fa; text-align: left; }
tr:nth-child(even) td { background: #fbfcfd; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .92em;
  background: #f3f4f6; padding: 0 .25em; border-radius: 3px; }
details { margin: .6em 0; }
summary { cursor: pointer; color: #0969da; }
figure.chart { margin: 1em 0; }
figure.chart svg { max-width: 100%; height: auto; }
hr { border: 0; border-top: 3px double #d0d7de; margin: 2.5em 0; }
@media print {
  @page { size: A4; margin: 14mm; }
  body { max-width: none; margin: 0; font-size: 10.5px; }
  table { display: table; font-size: 9px; page-break-inside: auto; }
  tr { page-break-inside: avoid; }
  details > summary { display: none; }
  details { display: block; }
  details::details-content { content-visibility: visible; display: block; }
  figure.chart { page-break-inside: avoid; }
  hr { page-break-after: always; border: 0; }
}
"#;

/// The page's only script, inline: printing opens every folded table (browsers without
/// `::details-content` would print them closed). Nothing is fetched.
const PRINT_OPEN: &str =
    "addEventListener('beforeprint',function(){document.querySelectorAll('details').forEach(function(d){d.open=true})})";

/// Renders the run as one HTML document, `charts` inline.
///
/// # Errors
/// Only I/O errors of `out`.
pub fn html(run: &Run, out: &mut dyn Write, charts: &[ChartFile]) -> io::Result<()> {
    let mut md = Vec::new();
    super::markdown_with_charts(run, &mut md, CHART_DIR, charts)?;
    let md = String::from_utf8_lossy(&md);
    let title = md
        .lines()
        .find_map(|l| l.strip_prefix("# "))
        .unwrap_or("sizer report")
        .to_string();
    write_page(&md, &title, charts, out)
}

/// Markdown `md` as a page titled `title`, with the chart links of `charts` inlined.
///
/// # Errors
/// Only I/O errors of `out`.
pub fn write_page(
    md: &str,
    title: &str,
    charts: &[ChartFile],
    out: &mut dyn Write,
) -> io::Result<()> {
    let events = transform(md, charts);
    let mut body = String::new();
    pulldown_cmark::html::push_html(&mut body, events.into_iter());
    write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"generator\" content=\"sizer {}\">\n<title>{}</title>\n<style>{CSS}</style>\n<script>{PRINT_OPEN}</script>\n</head>\n<body>\n{body}</body>\n</html>\n",
        env!("CARGO_PKG_VERSION"),
        escape(title)
    )
}

/// The Markdown's events with charts inlined, per-tier tables folded and raw HTML escaped.
fn transform<'a>(md: &'a str, charts: &[ChartFile]) -> Vec<Event<'a>> {
    let mut opts = Options::empty();
    opts.insert(Options::ENABLE_TABLES);
    let mut out: Vec<Event<'a>> = Vec::new();
    let mut in_image = false;
    // A table is held until its first header cell is known.
    let mut table: Option<Vec<Event<'a>>> = None;
    for ev in Parser::new_ext(md, opts) {
        let ev = match ev {
            Event::Start(Tag::Image { dest_url, .. }) => {
                let file = dest_url
                    .strip_prefix(CHART_DIR)
                    .map(|f| f.trim_start_matches('/'));
                match file.and_then(|f| charts.iter().find(|c| c.file == f)) {
                    Some(c) => {
                        in_image = true;
                        Event::Html(CowStr::from(format!(
                            "<figure class=\"chart\">{}</figure>",
                            inline_svg(&c.svg)
                        )))
                    }
                    None => Event::Text(CowStr::from(dest_url.to_string())),
                }
            }
            Event::End(TagEnd::Image) if in_image => {
                in_image = false;
                continue;
            }
            _ if in_image => continue,
            Event::Html(h) | Event::InlineHtml(h) => Event::Text(h),
            ev => ev,
        };
        if let Some(t) = &mut table {
            let end = matches!(ev, Event::End(TagEnd::Table));
            t.push(ev);
            if end {
                let t = table.take().expect("a table");
                let fold = first_header(&t).is_some_and(|h| h == "Tier");
                if fold {
                    out.push(Event::Html(CowStr::from(
                        "<details><summary>Every tier compared (click to open)</summary>\n",
                    )));
                }
                out.extend(t);
                if fold {
                    out.push(Event::Html(CowStr::from("</details>\n")));
                }
            }
            continue;
        }
        if matches!(ev, Event::Start(Tag::Table(_))) {
            table = Some(vec![ev]);
            continue;
        }
        out.push(ev);
    }
    if let Some(t) = table {
        out.extend(t);
    }
    out
}

/// The text of a table's first header cell.
fn first_header(t: &[Event<'_>]) -> Option<String> {
    let mut in_cell = false;
    let mut text = String::new();
    for ev in t {
        match ev {
            Event::Start(Tag::TableCell) => in_cell = true,
            Event::End(TagEnd::TableCell) => return Some(text.trim().to_string()),
            Event::Text(s) | Event::Code(s) if in_cell => text.push_str(s),
            _ => {}
        }
    }
    None
}

/// An SVG document without its XML prolog, for inlining.
fn inline_svg(svg: &str) -> &str {
    match svg.find("<svg") {
        Some(i) => &svg[i..],
        None => svg,
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
