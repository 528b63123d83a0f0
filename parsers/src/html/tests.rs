//! Tests of the HTML table scanner: markup cases, equivalence details, and (in `props`)
//! prefixes and arbitrary markup that must never panic.

use super::builder::count_newlines;
use super::entities::*;
use super::*;

#[test]
fn browser_resaved_markup() {
    let html = "junk before\r\n<HTML><H3 class=awr>Load Profile</H3>\r\n<TABLE border=0 summary=\"This table displays load profile\">\r\n<TR><TH class=awrbg>&nbsp;</TH><TH>Per Second</TH></TR>\r\n<TR><TD class=awrc>DB Time(s):</TD><TD align=right>1,2&nbsp;34.5 </TD></TR></TABLE></HTML>\r\nSQL> exit";
    let d = parse(html);
    assert!(d.saw_html_end);
    assert_eq!(d.tables.len(), 1);
    let t = &d.tables[0];
    assert_eq!(t.heading, "Load Profile");
    assert_eq!(t.summary, "This table displays load profile");
    assert_eq!(t.line, 3);
    assert_eq!(t.columns(), vec!["", "Per Second"]);
    let rows: Vec<_> = t.data().collect();
    assert_eq!(rows, vec![vec!["DB Time(s):", "1,2 34.5"]]);
}

#[test]
fn table_start_inside_table_closes_it() {
    let d =
        parse("<table summary=a><tr><td>1</td></tr><table summary=b><tr><td>2</td></tr></table>");
    assert_eq!(d.tables.len(), 2);
    assert!(d.tables.iter().all(|t| t.closed));
    assert_eq!(d.tables[1].data().next().unwrap(), vec!["2"]);
}

#[test]
fn colspan_expands_columns_and_unclosed_table_is_marked() {
    let d = parse("<table summary=x><tr><th colspan=2>a</th><th>b</th></tr><tr><td>1<td>2<td>3");
    let t = &d.tables[0];
    assert!(!t.closed);
    assert_eq!(t.columns(), vec!["a", "a", "b"]);
    assert_eq!(t.data().next().unwrap(), vec!["1", "2", "3"]);
}

/// The cell texts of table `t`, row by row.
fn cells(d: &Document, t: usize) -> Vec<Vec<&str>> {
    d.tables[t].rows().map(|r| r.texts()).collect()
}

#[test]
fn tag_names_in_any_case() {
    let d = parse("<TaBlE SUMMARY=s><Tr><tH>h</TH><Td>1</tD></tR></TABLE >");
    assert_eq!(d.tables[0].summary, "s");
    assert!(d.tables[0].closed);
    assert_eq!(cells(&d, 0), vec![vec!["h", "1"]]);
    let row = d.tables[0].row(0).unwrap();
    assert!(row.get(0).unwrap().header && !row.get(1).unwrap().header);
}

#[test]
fn attributes_in_every_quoting() {
    let d = parse(concat!(
        "<table summary=\"double  quoted > still\">",
        "<table summary='single &amp; quoted'>",
        "<table border=0 summary=unquoted width=600>",
        "<table summary = spaced >",
        "<table summary=first summary=second>",
        "<table summary>",
        "<table class=\"a>b\" summary=after-quote>",
        "<table\r\nSUMMARY='crlf'\r\n>",
    ));
    let s: Vec<_> = d.tables.iter().map(|t| t.summary.as_str()).collect();
    assert_eq!(
        s,
        vec![
            "double quoted > still",
            "single & quoted",
            "unquoted",
            "spaced",
            "first",
            "",
            "after-quote",
            "crlf"
        ]
    );
}

#[test]
fn colspan_in_every_quoting_and_invalid_is_one() {
    let d = parse(concat!(
        "<table><tr><td colspan=2>a<td colspan='3'>b<td COLSPAN=\"4\">c",
        "<td colspan = 5 >d<td colspan=x>e<td colspan=>f<td class='colspan=7'>g",
        "<td colspan=\" 6 \">h<td colspan=2 colspan=9>i",
    ));
    let spans: Vec<_> = d.tables[0]
        .row(0)
        .unwrap()
        .cells()
        .map(|c| c.colspan)
        .collect();
    assert_eq!(spans, vec![2, 3, 4, 5, 1, 1, 1, 6, 2]);
}

#[test]
fn text_is_collected_only_in_cells_headings_and_title() {
    let d = parse(concat!(
        "<html><head><title> AWR  Report </title></head><body>ignored text",
        "<h2>Main\n Report</h2><table><tr>row text<td> a\t b </td> between <th>c</th></tr>",
        "</table>after</body></html>",
    ));
    assert_eq!(d.title, "AWR Report");
    assert_eq!(d.headings, vec![("Main Report".to_string(), 2)]);
    assert_eq!(cells(&d, 0), vec![vec!["a b", "c"]]);
    assert_eq!(d.tables[0].heading, "Main Report");
}

#[test]
fn br_p_div_in_a_cell_add_a_space() {
    let d = parse("<table><tr><td>a<br>b<BR/>c<p>d</p><div>e</div></td></tr></table>");
    assert_eq!(cells(&d, 0), vec![vec!["a b c d e"]]);
    // Not in a heading: only cells get the space.
    let d = parse("<h3>a<br>b</h3>");
    assert_eq!(d.headings[0].0, "ab");
}

#[test]
fn comments_are_skipped() {
    let d = parse(concat!(
        "<!-- <table summary=no> -->",
        "<table summary=yes><tr><td>a<!-- </td><td> -->b</td>",
        "<!--><td>abrupt</td><!---><td>abrupt2</td>",
        "<!-- bang --!><td>bang</td><!-- a -- b --><td>dashes</td></tr></table>",
    ));
    assert_eq!(d.tables.len(), 1);
    assert_eq!(d.tables[0].summary, "yes");
    assert_eq!(
        cells(&d, 0),
        vec![vec!["ab", "abrupt", "abrupt2", "bang", "dashes"]]
    );
    // An unclosed comment hides the rest of the file.
    assert!(parse("<!-- <table>").tables.is_empty());
}

#[test]
fn script_and_style_are_raw_text() {
    let d = parse(concat!(
        "<script type=\"text/javascript\">document.write('<table summary=no>');",
        "if (a<b && c>d) {}</script>",
        "<style>td > b { color: red } /* <table> */</STYLE >",
        "<script><!-- <script> </script> <table summary=no> --></script>",
        "<table summary=yes></table>",
    ));
    assert_eq!(d.tables.len(), 1);
    assert_eq!(d.tables[0].summary, "yes");
}

#[test]
fn doctype_xml_declaration_and_cdata() {
    let d = parse(concat!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
        "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0//EN\" \"x.dtd\">\n",
        "<!doctype html><table summary=t><tr><td>1<![CDATA[ x ]]>2</td></tr></table>",
    ));
    assert_eq!(d.tables[0].line, 3);
    assert_eq!(cells(&d, 0), vec![vec!["12"]]);
    // In HTML, CDATA is a bogus comment that ends at the first `>`.
    let d = parse("<table><tr><td><![CDATA[ a > b ]]></td></tr></table>");
    assert_eq!(cells(&d, 0), vec![vec!["b ]]>"]]);
}

#[test]
fn self_closing_td_is_an_empty_cell() {
    let d = parse("<table><tr><td/><td>x</td><th/><td colspan='2'/><td colspan=2/></tr></table>");
    assert_eq!(cells(&d, 0), vec![vec!["", "x", "", "", ""]]);
    let row = d.tables[0].row(0).unwrap();
    assert!(row.get(2).unwrap().header);
    assert_eq!(row.get(3).unwrap().colspan, 2);
    // Unquoted, the `/` is part of the value ("2/"), as in WHATWG: not a number.
    assert_eq!(row.get(4).unwrap().colspan, 1);
    // HTML ignores the `/`: text after `<td/>` belongs to that cell.
    let d = parse("<table><tr><td/>y<td>z</tr></table>");
    assert_eq!(cells(&d, 0), vec![vec!["y", "z"]]);
}

#[test]
fn character_references() {
    let d = parse(concat!(
        "<table><tr><td>a&nbsp;b&#160;c&#xA0;d&#xa0-e&#xa0e</td>",
        "<td>&amp; &lt; &gt; &quot; &apos; &#39; &AMP; &LT</td>",
        "<td>&zzz; &amp &ampx &nbspy &#; &#x; & ;</td>",
        "<td>&#0;&#128;&#x110000;&#xD800;&#8364;&#x20ac;</td>",
        "<td>&hellip;&ndash;&copy;&notin;&notit;</td>",
        "<td>&nbsp;&#160;</td></tr></table>",
    ));
    assert_eq!(
        cells(&d, 0),
        vec![vec![
            "a b c d -e\u{a0e}",
            "& < > \" ' ' & <",
            "&zzz; & &x y &#; &#x; & ;",
            "\u{fffd}€\u{fffd}\u{fffd}€€",
            "…–©∉¬it;",
            "",
        ]]
    );
    // In an attribute, a legacy name without `;` followed by a letter or `=` stays.
    let d = parse("<table summary='&copy=1 &copyx &copy; &copy'>");
    assert_eq!(d.tables[0].summary, "&copy=1 &copyx © ©");
}

#[test]
fn text_before_html_and_after_html_end() {
    let d = parse(concat!(
        "SQL> @awrrpt\n<td>x</td>\n",
        "<html><table><tr><td>1</td></tr></table></html>\nSQL> <td>y</td> exit",
    ));
    assert!(d.saw_html && d.saw_html_end);
    assert_eq!(d.tables.len(), 1);
    assert_eq!(d.tables[0].line, 3);
    assert!(!parse("SQL> select 1 from dual;").saw_html);
    assert!(parse("<BODY>").saw_html);
}

#[test]
fn nested_tables_follow_their_parent() {
    let d = parse(concat!(
        "<table summary=outer><tr><td>a<table summary=inner><tr><td>b</td></tr></table>",
        "</td><td>c</td></tr></table><table summary=next></table>",
    ));
    let s: Vec<_> = d.tables.iter().map(|t| t.summary.as_str()).collect();
    assert_eq!(s, vec!["outer", "inner", "next"]);
    assert_eq!(cells(&d, 0), vec![vec!["a", "c"]]);
    assert_eq!(cells(&d, 1), vec![vec!["b"]]);
    assert!(d.tables.iter().all(|t| t.closed));
}

#[test]
fn lines_are_counted_by_lf_including_crlf() {
    let d = parse("<h3>A</h3>\r\n<table>\r\n\r\n<table>\n<h1>\nB\n</h1><table>\r");
    let lines: Vec<_> = d.tables.iter().map(|t| t.line).collect();
    assert_eq!(lines, vec![2, 4, 7]);
    assert_eq!(d.headings, vec![("A".into(), 1), ("B".into(), 7)]);
    assert_eq!(d.tables[2].heading, "B");
}

#[test]
fn lt_that_starts_no_tag_is_text() {
    let d = parse("<table><tr><td>a < b <3 <= c</td><td>x<</td><td></ y>z</td></tr></table>");
    assert_eq!(cells(&d, 0), vec![vec!["a < b <3 <= c", "x<", "z"]]);
}

#[test]
fn title_is_text_up_to_its_end_tag() {
    let d = parse("<title>AWR <b>Report</b> &amp; <table></TITLE ><table summary=t>");
    assert_eq!(d.title, "AWR <b>Report</b> & <table>");
    assert_eq!(d.tables.len(), 1);
}

#[test]
fn a_tag_cut_by_the_end_of_the_file_is_dropped() {
    let d = parse("<table><tr><td>x</td><td colspan='2");
    assert_eq!(cells(&d, 0), vec![vec!["x"]]);
    assert!(!d.tables[0].closed);
    assert!(parse("<table summary=\"a").tables.is_empty());
}

#[test]
fn a_cell_before_any_row_starts_one() {
    let d = parse("<table><td>a</td><tr><td>b</td></table>");
    assert_eq!(cells(&d, 0), vec![vec!["a"], vec!["b"]]);
}

#[test]
fn unicode_white_space_is_collapsed() {
    let d = parse("<table><tr><td>\u{3000}a\u{2009}\u{a0} b\u{85}</td><td>é</td></tr>");
    assert_eq!(cells(&d, 0), vec![vec!["a b", "é"]]);
}

#[test]
fn entity_table_is_sorted_and_legacy_names_are_short() {
    // `entity` searches by bisection, and `decode_into` tries legacy prefixes of at most 6.
    assert!(ENTITIES.windows(2).all(|w| w[0].0 < w[1].0));
    assert!(ENTITIES.iter().all(|e| e.0.len() >= 2));
    assert_eq!(ENTITIES.iter().filter(|e| e.2).count(), 106);
    assert!(ENTITIES.iter().filter(|e| e.2).all(|e| e.0.len() <= 6));
    for name in ["amp", "lt", "gt", "quot", "apos", "nbsp"] {
        assert!(entity(name.as_bytes()).is_some(), "{name}");
    }
}

#[test]
fn count_newlines_matches_naive() {
    let s: Vec<u8> = (0..1000u32)
        .map(|i| if i % 7 == 0 { b'\n' } else { b'x' })
        .collect();
    for n in [0, 1, 63, 64, 65, 128, 999, 1000] {
        let naive = s[..n].iter().filter(|&&c| c == b'\n').count();
        assert_eq!(count_newlines(&s[..n]), naive, "{n}");
    }
}

mod props {
    use proptest::prelude::*;

    const MINI: &str = "<html><h3>Load Profile</h3><table summary=\"This table displays load profile\"><tr><th></th><th>Per Second</th></tr><tr><td>DB Time(s):</td><td>1.9</td></tr></table></html>";

    proptest! {
        #[test]
        fn any_prefix_of_a_document_parses_without_panic(n in 0usize..MINI.len()) {
            let d = crate::html::parse(&MINI[..n]);
            // A document cut before </html> never reports the end tag.
            prop_assert!(!d.saw_html_end);
            let _ = crate::awr::html::parse(&MINI[..n]);
        }

        #[test]
        fn arbitrary_markup_never_panics(s in "[<>/a-z=\" ]{0,64}") {
            let _ = crate::html::parse(&s);
        }
    }
}
