//! SVG charts: draws a [`Chart`] (the engine's chart data, `crate::charts`) with plotters' SVG
//! backend. No font files and no network: text is SVG `<text>` in a generic sans-serif family,
//! sized by plotters' built-in estimate.
//!
//! Layout: one line per series (a gap where a value is unknown), the reference lines dashed, the
//! peak marked with a circle and its value, grade bands as faint horizontal lines labelled with
//! their letter. The x axis is labelled with the source's own clock (`MM-DD HH:MM`, or `HH:MM`
//! when every point is on one day).

use chrono::Duration;
use plotters::coord::ranged1d::{SegmentedCoord, ValueFormatter};
use plotters::coord::types::RangedCoordusize;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::charts::{BarKind, Chart, RefKind};
use crate::report::fmt::fmt_num;

/// Width and height of every chart, px.
pub const SIZE: (u32, u32) = (900, 340);

/// Width of the legend column on the right, px.
const LEGEND_W: u32 = 210;

/// `label` in at most two lines, the first at most `n` characters (split at a space).
fn split_label(label: &str, n: usize) -> (String, Option<String>) {
    if label.chars().count() <= n {
        return (label.to_string(), None);
    }
    let cut = label
        .char_indices()
        .take_while(|(i, _)| *i <= n)
        .filter(|(_, c)| *c == ' ')
        .map(|(i, _)| i)
        .last()
        .unwrap_or(n.min(label.len()));
    (
        label[..cut].to_string(),
        Some(label[cut..].trim_start().to_string()),
    )
}

const COLOURS: [RGBColor; 4] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
];

/// The chart as an SVG document.
///
/// # Errors
/// A drawing error of plotters, as text (none is expected for finite data).
pub fn chart_svg(c: &Chart) -> Result<String, String> {
    let mut svg = String::new();
    draw(c, &mut svg).map_err(|e| format!("drawing the chart '{}': {e}", c.title))?;
    Ok(svg)
}

fn draw(c: &Chart, svg: &mut String) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    if !c.bars.is_empty() {
        return draw_bars(c, svg);
    }
    let root = SVGBackend::with_string(svg, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    // The legend has its own column on the right, so it never covers a point or a label.
    let (plot, legend_area) = root.split_horizontally(SIZE.0 - LEGEND_W);
    let mut legend: Vec<(String, RGBColor, bool)> = Vec::new();
    let xs = c.series.iter().flat_map(|s| s.points.iter().map(|p| p.x));
    let x_max = xs.fold(0.0_f64, f64::max).max(1.0);
    let y_data = c
        .series
        .iter()
        .flat_map(|s| s.points.iter().filter_map(|p| p.y))
        .chain(c.lines.iter().map(|l| l.value))
        .fold(0.0_f64, f64::max);
    let y_max = if y_data > 0.0 { y_data * 1.12 } else { 1.0 };
    let t0 = c
        .series
        .iter()
        .flat_map(|s| s.points.first())
        .find(|p| p.x == 0.0)
        .and_then(|p| crate::charts::parse_time(&p.time));
    let one_day = x_max < 86_400.0
        && t0.is_some_and(|t| (t + Duration::seconds(x_max as i64)).date() == t.date());
    // Seconds when the whole span is under 30 minutes (iostat every few seconds).
    let format = match (one_day, x_max < 1_800.0) {
        (true, true) => "%H:%M:%S",
        (true, false) => "%H:%M",
        _ => "%m-%d %H:%M",
    };
    let x_label = move |x: &f64| match t0 {
        Some(t) => (t + Duration::milliseconds((*x * 1000.0) as i64))
            .format(format)
            .to_string(),
        None => format!("{x:.0} s"),
    };
    let mut chart = ChartBuilder::on(&plot)
        .caption(&c.title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)?;
    chart
        .configure_mesh()
        .light_line_style(RGBColor(235, 235, 235))
        .x_desc(c.clock.as_str())
        .y_desc(c.unit)
        .x_labels((x_max as usize + 1).clamp(2, 8))
        .x_label_formatter(&x_label)
        .y_label_formatter(&|y| fmt_num(*y, if y_max < 10.0 { 1 } else { 0 }))
        .draw()?;
    for b in c.bands.iter().filter(|b| b.upper_ms < y_max) {
        let grey = RGBColor(200, 200, 200);
        chart.draw_series(LineSeries::new(
            [(0.0, b.upper_ms), (x_max, b.upper_ms)],
            grey.stroke_width(1),
        ))?;
        chart.draw_series(std::iter::once(Text::new(
            format!("{} ≤ {} ms", b.letter, fmt_num(b.upper_ms, 1)),
            (x_max, b.upper_ms),
            ("sans-serif", 11)
                .into_font()
                .color(&RGBColor(120, 120, 120))
                .pos(Pos::new(HPos::Right, VPos::Bottom)),
        )))?;
    }
    if c.stacked {
        draw_stacked(c, &mut chart, &mut legend)?;
    }
    for (k, s) in c.series.iter().enumerate().filter(|_| !c.stacked) {
        let colour = COLOURS[k % COLOURS.len()];
        // One line per run of known values: an unknown interval is a gap.
        let mut runs: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
        for p in &s.points {
            match p.y {
                Some(y) => runs.last_mut().expect("a run").push((p.x, y)),
                None => runs.push(Vec::new()),
            }
        }
        legend.push((s.name.clone(), colour, false));
        for run in runs.into_iter().filter(|r| !r.is_empty()) {
            let points = run.clone();
            chart.draw_series(LineSeries::new(run, colour.stroke_width(2)))?;
            chart.draw_series(
                points
                    .into_iter()
                    .map(|p| Circle::new(p, 2, colour.filled())),
            )?;
        }
    }
    for l in &c.lines {
        let (label, colour) = match l.kind {
            RefKind::Sized { headroom_pct } => (
                format!(
                    "sized: {} + {} % headroom = {}",
                    l.statistic,
                    fmt_num(headroom_pct, 0),
                    fmt_num(l.value, if l.value < 100.0 { 2 } else { 0 })
                ),
                RGBColor(214, 39, 40),
            ),
            RefKind::Statistic => (
                format!("{} = {}", l.statistic, fmt_num(l.value, 2)),
                RGBColor(127, 127, 127),
            ),
            RefKind::SumOfMembers => (
                format!(
                    "sum of the members' {}s = {}",
                    l.statistic,
                    fmt_num(l.value, 2)
                ),
                RGBColor(140, 86, 75),
            ),
        };
        chart.draw_series(DashedLineSeries::new(
            [(0.0, l.value), (x_max, l.value)],
            6,
            4,
            colour.stroke_width(1),
        ))?;
        legend.push((label, colour, true));
    }
    if let Some(m) = &c.peak {
        if let Some(y) = m.point.y {
            let dark = RGBColor(40, 40, 40);
            chart.draw_series(std::iter::once(Circle::new(
                (m.point.x, y),
                5,
                dark.stroke_width(2),
            )))?;
            // The label sits on the side of the point with more room.
            let h = if m.point.x > x_max / 2.0 {
                HPos::Right
            } else {
                HPos::Left
            };
            chart.draw_series(std::iter::once(Text::new(
                format!(
                    "peak {} at {}",
                    fmt_num(y, 2),
                    m.point.time.replace('T', " ")
                ),
                (m.point.x, y),
                ("sans-serif", 11)
                    .into_font()
                    .color(&dark)
                    .pos(Pos::new(h, VPos::Bottom)),
            )))?;
        }
    }
    for (k, (label, colour, dashed)) in legend.iter().enumerate() {
        let y = 44 + 34 * k as i32;
        let style = colour.stroke_width(2);
        if *dashed {
            legend_area.draw(&PathElement::new([(4, y), (10, y)], style))?;
            legend_area.draw(&PathElement::new([(14, y), (20, y)], style))?;
        } else {
            legend_area.draw(&PathElement::new([(4, y), (20, y)], style))?;
        }
        // Two lines of at most ~26 characters each, split at a space.
        let (a, b) = split_label(label, 26);
        let font = ("sans-serif", 11).into_font().color(&RGBColor(40, 40, 40));
        legend_area.draw(&Text::new(a, (26, y - 6), font.clone()))?;
        if let Some(b) = b {
            legend_area.draw(&Text::new(b, (26, y + 7), font))?;
        }
    }
    root.present()?;
    Ok(())
}

/// A bar's label: `required`, `sized (+30 % headroom)`, `1 × aws.gp3` (the tier id names the
/// platform).
fn bar_label(k: &BarKind) -> String {
    match k {
        BarKind::Required => "required".into(),
        BarKind::Sized { headroom_pct } => {
            format!("sized (+{} % headroom)", fmt_num(*headroom_pct, 0))
        }
        BarKind::Layout { count, tier_id, .. } => format!("{count} × {tier_id}"),
    }
}

/// Horizontal bars, one per [`crate::charts::Bar`], on a logarithmic axis when the values span
/// more than 50×; each bar carries its value.
fn draw_bars(c: &Chart, svg: &mut String) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    let root =
        SVGBackend::with_string(svg, (SIZE.0, 70 + 34 * c.bars.len() as u32)).into_drawing_area();
    root.fill(&WHITE)?;
    // The first bar on top: row `n - 1 - i`.
    let n = c.bars.len();
    let labels: Vec<String> = c.bars.iter().rev().map(|b| bar_label(&b.kind)).collect();
    let max = c
        .bars
        .iter()
        .map(|b| b.value)
        .fold(0.0_f64, f64::max)
        .max(1.0);
    let min = c
        .bars
        .iter()
        .map(|b| b.value)
        .filter(|v| *v > 0.0)
        .fold(f64::INFINITY, f64::min)
        .min(max);
    let label_of = |y: &SegmentValue<usize>| match y {
        SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => {
            labels.get(*i).cloned().unwrap_or_default()
        }
        SegmentValue::Last => String::new(),
    };
    // A logarithmic axis when the values span more than 50×; bars start at the axis' floor.
    let mut builder = ChartBuilder::on(&root);
    let build = builder
        .caption(&c.title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(220);
    let rows = (0..n).into_segmented();
    if max / min > 50.0 {
        let mut chart = build.build_cartesian_2d((min / 2.0..max * 3.0).log_scale(), rows)?;
        let desc = format!("{} (logarithmic)", c.unit);
        bar_rows(&mut chart, c, min / 2.0, &desc, &label_of)?;
    } else {
        let mut chart = build.build_cartesian_2d(0.0..max * 1.15, rows)?;
        bar_rows(&mut chart, c, 0.0, c.unit, &label_of)?;
    }
    root.present()?;
    Ok(())
}

/// The series of `c` stacked: each member's area drawn from the running total of the ones
/// before it (an unknown value counts as nothing added, and the sum line shows the gap).
fn draw_stacked<DB: DrawingBackend>(
    c: &Chart,
    chart: &mut ChartContext<
        '_,
        DB,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
    legend: &mut Vec<(String, RGBColor, bool)>,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let Some(first) = c.series.first() else {
        return Ok(());
    };
    let xs: Vec<f64> = first.points.iter().map(|p| p.x).collect();
    let mut base = vec![0.0_f64; xs.len()];
    for (k, s) in c.series.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let top: Vec<f64> = base
            .iter()
            .zip(&s.points)
            .map(|(b, p)| b + p.y.unwrap_or(0.0))
            .collect();
        let mut poly: Vec<(f64, f64)> = xs.iter().copied().zip(top.iter().copied()).collect();
        poly.extend(xs.iter().copied().zip(base.iter().copied()).rev());
        chart.draw_series(std::iter::once(Polygon::new(
            poly,
            colour.mix(0.55).filled(),
        )))?;
        chart.draw_series(LineSeries::new(
            xs.iter().copied().zip(top.iter().copied()),
            colour.stroke_width(1),
        ))?;
        legend.push((s.name.clone(), colour, false));
        base = top;
    }
    Ok(())
}

/// A bar's colour: grey for the required figure, red for the sized one, blue for a layout.
fn bar_colour(k: &BarKind) -> RGBColor {
    match k {
        BarKind::Required => RGBColor(127, 127, 127),
        BarKind::Sized { .. } => RGBColor(214, 39, 40),
        BarKind::Layout { .. } => COLOURS[0],
    }
}

/// The mesh and the bars of a bar chart on its x axis `X` (linear or logarithmic): the first
/// bar on top, each from `floor` to its value, labelled with the value.
fn bar_rows<X>(
    chart: &mut ChartContext<'_, SVGBackend<'_>, Cartesian2d<X, SegmentedCoord<RangedCoordusize>>>,
    c: &Chart,
    floor: f64,
    desc: &str,
    label_of: &dyn Fn(&SegmentValue<usize>) -> String,
) -> Result<(), DrawingAreaErrorKind<std::io::Error>>
where
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    chart
        .configure_mesh()
        .light_line_style(RGBColor(235, 235, 235))
        .x_desc(desc)
        .y_label_formatter(label_of)
        .x_label_formatter(&|x| fmt_num(*x, 0))
        .draw()?;
    let n = c.bars.len();
    for (k, b) in c.bars.iter().enumerate() {
        let i = n - 1 - k;
        let end = b.value.max(floor);
        chart.draw_series(std::iter::once(Rectangle::new(
            [
                (floor, SegmentValue::Exact(i)),
                (end, SegmentValue::Exact(i + 1)),
            ],
            bar_colour(&b.kind).mix(0.8).filled(),
        )))?;
        chart.draw_series(std::iter::once(Text::new(
            fmt_num(b.value, if b.value < 100.0 { 2 } else { 0 }),
            (end, SegmentValue::CenterOf(i)),
            ("sans-serif", 11)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Left, VPos::Center)),
        )))?;
    }
    Ok(())
}
