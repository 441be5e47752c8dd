//! A backend-independent description of one chart ([`Figure`]) and the one
//! routine that draws any figure with plotters, to SVG or to a bitmap.
//!
//! Each result kind (curve, compare, simulate) is turned into a `Figure`;
//! drawing is shared, so every plot has the same look: log y axis, labelled
//! axes with units, a title (and subtitle), and a legend in its own column to
//! the right of the plotting area so that it never covers a line.

use plotters::coord::Shift;
use plotters::coord::ranged1d::{
    AsRangedCoord, DefaultFormatting, KeyPointHint, Ranged, ValueFormatter,
};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::error::{PlotError, Result, render_err};
use crate::font::FAMILY;
use crate::ticks::{log_range, log_ticks, tick_label};

/// Colours of successive series: dark, well separated, readable on white.
pub const PALETTE: [RGBColor; 8] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x8c, 0x56, 0x4b),
    RGBColor(0xe3, 0x77, 0xc2),
    RGBColor(0x17, 0xbe, 0xcf),
];

/// Colour of the `2^-r` asymptotes.
pub const ASYMPTOTE: RGBColor = RGBColor(0x55, 0x55, 0x55);

/// Colour of the `i`-th series.
pub fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// The horizontal axis of a figure.
#[derive(Debug, Clone, PartialEq)]
pub enum XAxis {
    /// A logarithmic axis of numbers.
    Log,
    /// Named categories at x = 0, 1, 2, ...
    Categories(Vec<String>),
}

/// One point with an optional interval, for estimates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// Abscissa.
    pub x: f64,
    /// Point estimate; `None` (or not positive) when it cannot go on a log axis, e.g. zero escapes.
    pub y: Option<f64>,
    /// Lower end of the interval (zero draws the bar down to the axis).
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
}

/// What a series draws.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A solid line through the points, with dots at the points when there are few.
    Line(Vec<(f64, f64)>),
    /// A dashed horizontal line at this height across the whole plot.
    Asymptote(f64),
    /// Dots with vertical interval bars; a zero estimate shows as a
    /// downward triangle at the upper bound.
    Estimates(Vec<Interval>),
    /// Hollow diamonds at exact values.
    Exact(Vec<(f64, f64)>),
    /// A shaded band between a lower and an upper curve, `(x, low, high)`
    /// (a zero lower end reaches down to the axis).
    Band(Vec<(f64, f64, f64)>),
}

/// One legend entry and what it draws.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Legend text.
    pub label: String,
    /// Colour.
    pub colour: RGBColor,
    /// Geometry.
    pub shape: Shape,
}

/// A whole chart, ready to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// Title line (names the check or checks).
    pub title: String,
    /// Second, smaller title line (method, seed, frame counts), if any.
    pub subtitle: Option<String>,
    /// Horizontal axis label, with its unit.
    pub x_label: String,
    /// Vertical axis label, with its unit.
    pub y_label: String,
    /// Kind of horizontal axis.
    pub x_axis: XAxis,
    /// The series, in legend order.
    pub series: Vec<Series>,
}

/// A linear axis whose ticks are exactly the category positions 0, 1, 2, ...
#[derive(Debug, Clone)]
struct CategoryAxis {
    range: (f64, f64),
    keys: Vec<f64>,
}

impl Ranged for CategoryAxis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let (a, b) = self.range;
        let t = (v - a) / (b - a);
        limit.0 + (t * f64::from(limit.1 - limit.0)).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, _hint: Hint) -> Vec<f64> {
        self.keys.clone()
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.range.0..self.range.1
    }
}

/// A logarithmic axis with our own ticks ([`log_ticks`]), valid down to the
/// smallest probabilities (plotters' log axis loses ticks below 2.2e-16).
#[derive(Debug, Clone)]
struct LogAxis {
    lo: f64,
    hi: f64,
}

impl Ranged for LogAxis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let t = (v.ln() - self.lo.ln()) / (self.hi.ln() - self.lo.ln());
        let px = f64::from(limit.0) + t * f64::from(limit.1 - limit.0);
        px.round().clamp(-1e6, 1e6) as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        log_ticks(
            self.lo,
            self.hi,
            hint.bold_points(),
            hint.weight().allow_light_points(),
        )
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.lo..self.hi
    }
}

/// Default picture size in pixels (also the SVG view box).
pub const SIZE: (u32, u32) = (1100, 650);

/// Reads a picture size `WIDTHxHEIGHT` (`x` or `X`), each 400 to 8000
/// pixels; the message says what is expected.
///
/// ```
/// use aliasing_plot::figure::parse_size;
/// assert_eq!(parse_size("1100x650"), Ok((1100, 650)));
/// assert_eq!(parse_size("800X600"), Ok((800, 600)));
/// for bad in ["", "100x100", "1100", "ax600", "9000x600", "800x-1"] {
///     assert!(parse_size(bad).is_err(), "{bad}");
/// }
/// ```
pub fn parse_size(s: &str) -> std::result::Result<(u32, u32), String> {
    let bad = || format!("expected WIDTHxHEIGHT with each 400 to 8000, got {s:?}");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u32 = w.trim().parse().map_err(|_| bad())?;
    let h: u32 = h.trim().parse().map_err(|_| bad())?;
    if !(400..=8000).contains(&w) || !(400..=8000).contains(&h) {
        return Err(bad());
    }
    Ok((w, h))
}

fn positive(v: f64) -> Option<f64> {
    (v.is_finite() && v > 0.0).then_some(v)
}

impl Figure {
    /// Every positive, finite y value that the figure shows (for the y range).
    fn y_values(&self) -> Vec<f64> {
        let mut ys = Vec::new();
        for s in &self.series {
            match &s.shape {
                Shape::Line(p) | Shape::Exact(p) => ys.extend(p.iter().map(|q| q.1)),
                Shape::Asymptote(y) => ys.push(*y),
                Shape::Estimates(p) => {
                    for q in p {
                        ys.extend(q.y);
                        ys.push(q.low);
                        ys.push(q.high);
                    }
                }
                Shape::Band(p) => {
                    for q in p {
                        ys.push(q.1);
                        ys.push(q.2);
                    }
                }
            }
        }
        ys.retain(|v| positive(*v).is_some());
        ys
    }

    /// Every finite positive x value of the figure's lines and points.
    fn x_values(&self) -> Vec<f64> {
        let mut xs = Vec::new();
        for s in &self.series {
            match &s.shape {
                Shape::Line(p) | Shape::Exact(p) => {
                    xs.extend(p.iter().filter(|q| positive(q.1).is_some()).map(|q| q.0))
                }
                Shape::Asymptote(_) => {}
                Shape::Estimates(p) => xs.extend(p.iter().map(|q| q.x)),
                Shape::Band(p) => {
                    xs.extend(p.iter().filter(|q| positive(q.2).is_some()).map(|q| q.0))
                }
            }
        }
        xs.retain(|v| positive(*v).is_some());
        xs
    }

    /// Removes the points that cannot go on the log axes (zero, negative,
    /// non-finite), and fails when nothing plottable is left.
    pub fn validate(&self) -> Result<()> {
        let has_data = self.series.iter().any(|s| match &s.shape {
            Shape::Line(p) | Shape::Exact(p) => {
                p.iter().any(|q| positive(q.1).is_some() && self.x_ok(q.0))
            }
            Shape::Asymptote(_) => false,
            Shape::Estimates(p) => p
                .iter()
                .any(|q| positive(q.high).is_some() && self.x_ok(q.x)),
            Shape::Band(p) => p.iter().any(|q| positive(q.2).is_some() && self.x_ok(q.0)),
        });
        if has_data {
            Ok(())
        } else {
            Err(PlotError::Empty(
                "every value is zero, negative or missing, so none fits on a log axis".into(),
            ))
        }
    }

    fn x_ok(&self, x: f64) -> bool {
        match self.x_axis {
            XAxis::Log => positive(x).is_some(),
            XAxis::Categories(_) => x.is_finite(),
        }
    }

    /// Draws the figure onto a drawing area of any plotters backend.
    pub fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()> {
        self.validate()?;
        root.fill(&WHITE).map_err(render_err)?;
        let (w, _) = root.dim_in_pixel();

        // Title, shrunk to fit the width, and cut short with an ellipsis if even
        // the smallest size is too wide.
        let fits = |text: &str, size: f64| -> Result<bool> {
            let (tw, _) = root
                .estimate_text_size(text, &(FAMILY, size).into_text_style(root))
                .map_err(render_err)?;
            Ok(tw + 20 <= w)
        };
        let mut title_size = 24.0;
        while title_size > 13.0 && !fits(&self.title, title_size)? {
            title_size -= 1.0;
        }
        let mut title = self.title.clone();
        let mut keep = title.chars().count();
        while !fits(&title, title_size)? && keep > 4 {
            keep -= 2;
            title = self.title.chars().take(keep).collect::<String>() + "\u{2026}";
        }
        let mut area = root
            .titled(&title, (FAMILY, title_size))
            .map_err(render_err)?;
        if let Some(sub) = &self.subtitle {
            area = area
                .titled(
                    sub,
                    (FAMILY, 16).into_font().color(&RGBColor(0x44, 0x44, 0x44)),
                )
                .map_err(render_err)?;
        }

        // Legend column on the right, as wide as its longest label.
        let legend_font = (FAMILY, 15).into_font();
        let mut text_w = 0;
        for s in &self.series {
            let (tw, _) = root
                .estimate_text_size(&s.label, &legend_font.clone().into_text_style(root))
                .map_err(render_err)?;
            text_w = text_w.max(tw);
        }
        let legend_w = (text_w + 75).max(140).min(w * 45 / 100);
        let (plot_area, legend_area) = area.split_horizontally(w - legend_w);

        let ys = self.y_values();
        let (ymin, ymax) = (
            ys.iter().copied().fold(f64::INFINITY, f64::min),
            ys.iter().copied().fold(0.0, f64::max),
        );
        let (y0, y1) = log_range(ymin, ymax, true);

        match &self.x_axis {
            XAxis::Log => {
                let xs = self.x_values();
                let (xmin, xmax) = (
                    xs.iter().copied().fold(f64::INFINITY, f64::min),
                    xs.iter().copied().fold(0.0, f64::max),
                );
                let (x0, x1) = log_range(xmin, xmax, false);
                self.draw_chart(
                    &plot_area,
                    LogAxis { lo: x0, hi: x1 },
                    (x0, x1),
                    (y0, y1),
                    &|v| tick_label(*v),
                )?;
            }
            XAxis::Categories(names) => {
                let k = names.len().max(1) as f64;
                let keys: Vec<f64> = (0..names.len()).map(|i| i as f64).collect();
                let fmt = |v: &f64| {
                    let i = v.round();
                    if (v - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < names.len() {
                        names[i as usize].clone()
                    } else {
                        String::new()
                    }
                };
                self.draw_chart(
                    &plot_area,
                    CategoryAxis {
                        range: (-0.5, k - 0.5),
                        keys,
                    },
                    (-0.5, k - 0.5),
                    (y0, y1),
                    &fmt,
                )?;
            }
        }
        self.draw_legend(&legend_area, legend_area.dim_in_pixel().1)?;
        root.present().map_err(render_err)?;
        Ok(())
    }

    fn draw_chart<DB, XS>(
        &self,
        area: &DrawingArea<DB, Shift>,
        x_spec: XS,
        (x0, x1): (f64, f64),
        (y0, y1): (f64, f64),
        x_fmt: &dyn Fn(&f64) -> String,
    ) -> Result<()>
    where
        DB: DrawingBackend,
        XS: AsRangedCoord<Value = f64>,
        XS::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
    {
        let mut chart = ChartBuilder::on(area)
            .margin(12)
            .margin_right(4)
            .x_label_area_size(58)
            .y_label_area_size(78)
            .build_cartesian_2d(x_spec, LogAxis { lo: y0, hi: y1 })
            .map_err(render_err)?;
        let categorical = matches!(self.x_axis, XAxis::Categories(_));
        let y_fmt = |v: &f64| tick_label(*v);
        let mut mesh = chart.configure_mesh();
        mesh.x_desc(self.x_label.as_str())
            .y_desc(self.y_label.as_str())
            .x_label_formatter(x_fmt)
            .y_label_formatter(&y_fmt)
            .x_labels(if categorical { 64 } else { 12 })
            .y_labels(14)
            .label_style((FAMILY, 15))
            .axis_desc_style((FAMILY, 17))
            .bold_line_style(RGBColor(0xdd, 0xdd, 0xdd))
            .light_line_style(RGBColor(0xf2, 0xf2, 0xf2));
        if let XAxis::Categories(names) = &self.x_axis {
            mesh.disable_x_mesh();
            // Smaller names when they would crowd each other.
            let chars: usize = names.iter().map(|n| n.chars().count() + 2).sum();
            if chars * 9 > area.dim_in_pixel().0 as usize {
                mesh.x_label_style((FAMILY, 11));
            }
        }
        mesh.draw().map_err(render_err)?;

        let bar_bottom = y0;
        for s in &self.series {
            let c = s.colour;
            match &s.shape {
                Shape::Asymptote(y) => {
                    chart
                        .draw_series(DashedLineSeries::new(
                            [(x0, *y), (x1, *y)],
                            10,
                            6,
                            c.stroke_width(2),
                        ))
                        .map_err(render_err)?;
                }
                Shape::Line(p) => {
                    let mut pts: Vec<(f64, f64)> = p
                        .iter()
                        .copied()
                        .filter(|q| positive(q.1).is_some() && self.x_ok(q.0))
                        .collect();
                    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
                    chart
                        .draw_series(LineSeries::new(pts.iter().copied(), c.stroke_width(2)))
                        .map_err(render_err)?;
                    if pts.len() <= 40 {
                        chart
                            .draw_series(pts.iter().map(|q| Circle::new(*q, 3, c.filled())))
                            .map_err(render_err)?;
                    }
                }
                Shape::Exact(p) => {
                    let pts = p
                        .iter()
                        .copied()
                        .filter(|q| positive(q.1).is_some() && self.x_ok(q.0));
                    chart
                        .draw_series(pts.map(|q| {
                            EmptyElement::at(q)
                                + Polygon::new(
                                    vec![(0, -7), (7, 0), (0, 7), (-7, 0)],
                                    WHITE.filled(),
                                )
                                + PathElement::new(
                                    vec![(0, -7), (7, 0), (0, 7), (-7, 0), (0, -7)],
                                    c.stroke_width(2),
                                )
                        }))
                        .map_err(render_err)?;
                }
                Shape::Band(p) => {
                    let mut pts: Vec<(f64, f64, f64)> = p
                        .iter()
                        .copied()
                        .filter(|q| positive(q.2).is_some() && self.x_ok(q.0))
                        .collect();
                    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
                    let mut outline: Vec<(f64, f64)> = pts.iter().map(|q| (q.0, q.2)).collect();
                    outline.extend(pts.iter().rev().map(|q| {
                        (
                            q.0,
                            if q.1 > 0.0 {
                                q.1.max(bar_bottom)
                            } else {
                                bar_bottom
                            },
                        )
                    }));
                    if outline.len() >= 4 {
                        chart
                            .draw_series(std::iter::once(Polygon::new(
                                outline,
                                c.mix(0.25).filled(),
                            )))
                            .map_err(render_err)?;
                    }
                }
                Shape::Estimates(p) => {
                    for q in p
                        .iter()
                        .filter(|q| positive(q.high).is_some() && self.x_ok(q.x))
                    {
                        let low = if q.low > 0.0 {
                            q.low.max(bar_bottom)
                        } else {
                            bar_bottom
                        };
                        let style = c.stroke_width(2);
                        chart
                            .draw_series(std::iter::once(PathElement::new(
                                vec![(q.x, low), (q.x, q.high)],
                                style,
                            )))
                            .map_err(render_err)?;
                        let mut caps = vec![(q.x, q.high)];
                        if q.low > 0.0 {
                            caps.push((q.x, low));
                        }
                        chart
                            .draw_series(caps.into_iter().map(|at| {
                                EmptyElement::at(at)
                                    + PathElement::new(vec![(-5, 0), (5, 0)], style)
                            }))
                            .map_err(render_err)?;
                        match q.y.and_then(positive) {
                            Some(y) => chart
                                .draw_series(std::iter::once(Circle::new((q.x, y), 5, c.filled())))
                                .map_err(render_err)?,
                            None => chart
                                .draw_series(std::iter::once(
                                    EmptyElement::at((q.x, q.high))
                                        + Polygon::new(vec![(-6, -9), (6, -9), (0, 0)], c.filled()),
                                ))
                                .map_err(render_err)?,
                        };
                    }
                }
            }
        }
        Ok(())
    }

    fn draw_legend<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        height: u32,
    ) -> Result<()> {
        // Rows and their text shrink (down to 14 px, 10 px) when there are many entries.
        let n = self.series.len().max(1) as i32;
        let row = ((height as i32 - 40) / n).clamp(14, 26);
        let font = (FAMILY, f64::from((row - 4).clamp(10, 15)))
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Left, VPos::Center));
        let top = 30;
        for (i, s) in self.series.iter().enumerate() {
            let y = top + row * i as i32;
            let c = s.colour;
            let (x0, x1) = (8, 48);
            let xm = (x0 + x1) / 2;
            match &s.shape {
                Shape::Line(_) => {
                    area.draw(&PathElement::new(vec![(x0, y), (x1, y)], c.stroke_width(2)))
                        .map_err(render_err)?;
                    area.draw(&Circle::new((xm, y), 3, c.filled()))
                        .map_err(render_err)?;
                }
                Shape::Asymptote(_) => {
                    for (a, b) in [(x0, x0 + 10), (x0 + 16, x0 + 26), (x0 + 32, x1)] {
                        area.draw(&PathElement::new(vec![(a, y), (b, y)], c.stroke_width(2)))
                            .map_err(render_err)?;
                    }
                }
                Shape::Estimates(_) => {
                    let st = c.stroke_width(2);
                    area.draw(&PathElement::new(vec![(xm, y - 9), (xm, y + 9)], st))
                        .map_err(render_err)?;
                    area.draw(&PathElement::new(
                        vec![(xm - 5, y - 9), (xm + 5, y - 9)],
                        st,
                    ))
                    .map_err(render_err)?;
                    area.draw(&PathElement::new(
                        vec![(xm - 5, y + 9), (xm + 5, y + 9)],
                        st,
                    ))
                    .map_err(render_err)?;
                    area.draw(&Circle::new((xm, y), 5, c.filled()))
                        .map_err(render_err)?;
                }
                Shape::Band(_) => {
                    area.draw(&Rectangle::new(
                        [(x0, y - 7), (x1, y + 7)],
                        c.mix(0.25).filled(),
                    ))
                    .map_err(render_err)?;
                }
                Shape::Exact(_) => {
                    let d = vec![
                        (xm, y - 7),
                        (xm + 7, y),
                        (xm, y + 7),
                        (xm - 7, y),
                        (xm, y - 7),
                    ];
                    area.draw(&PathElement::new(d, c.stroke_width(2)))
                        .map_err(render_err)?;
                }
            }
            area.draw(&Text::new(s.label.clone(), (x1 + 10, y), font.clone()))
                .map_err(render_err)?;
        }
        Ok(())
    }
}
