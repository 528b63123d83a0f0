//! Finds non-finite numbers in what the JSON renders. `serde_json` writes NaN and infinity as
//! `null`, which reads as unknown, so the JSON text cannot show them: this serializer walks the
//! same `Serialize` values the JSON renderer writes and records the path of every NaN or
//! infinite `f32`/`f64`.

use serde::ser::{self, Serialize};

/// Paths (`hosts[0].demand.required_iops`) of the non-finite numbers in `value`.
pub fn non_finite<T: Serialize + ?Sized>(root: &str, value: &T) -> Vec<String> {
    let mut w = Walker {
        path: vec![root.to_string()],
        found: Vec::new(),
    };
    // The walker never fails.
    let _ = value.serialize(&mut w);
    w.found
}

/// The walk: where it is and what it found.
pub struct Walker {
    path: Vec<String>,
    found: Vec<String>,
}

#[derive(Debug)]
/// The walker's error, never made.
pub struct Never;

impl std::fmt::Display for Never {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("never")
    }
}

impl std::error::Error for Never {}

impl ser::Error for Never {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Never
    }
}

impl Walker {
    fn float(&mut self, v: f64) {
        if !v.is_finite() && !self.open_p95_edge(v) {
            self.found.push(format!("{} = {v}", self.path.concat()));
        }
    }

    /// `+inf` as the upper edge of a p95 range (`demand.log_write_p95[1]`, and the other
    /// `*_p95` pairs `(lo_ms, hi_ms)`): the p95 lies in the histogram's open-ended bucket, which
    /// the JSON prints as `null` by design (docs/json-schema.md: "hi null = open bucket"). It is
    /// a bound, not a figure that is unknown.
    fn open_p95_edge(&self, v: f64) -> bool {
        let n = self.path.len();
        v == f64::INFINITY
            && n >= 2
            && self.path[n - 1] == "[1]"
            && self.path[n - 2].ends_with("_p95")
    }
    fn nested<T: Serialize + ?Sized>(&mut self, step: String, v: &T) -> Result<(), Never> {
        self.path.push(step);
        let r = v.serialize(&mut *self);
        self.path.pop();
        r
    }
}

type R = Result<(), Never>;

impl<'a> ser::Serializer for &'a mut Walker {
    type Ok = ();
    type Error = Never;
    type SerializeSeq = Seq<'a>;
    type SerializeTuple = Seq<'a>;
    type SerializeTupleStruct = Seq<'a>;
    type SerializeTupleVariant = Seq<'a>;
    type SerializeMap = Map<'a>;
    type SerializeStruct = Map<'a>;
    type SerializeStructVariant = Map<'a>;

    fn serialize_bool(self, _: bool) -> R {
        Ok(())
    }
    fn serialize_i8(self, _: i8) -> R {
        Ok(())
    }
    fn serialize_i16(self, _: i16) -> R {
        Ok(())
    }
    fn serialize_i32(self, _: i32) -> R {
        Ok(())
    }
    fn serialize_i64(self, _: i64) -> R {
        Ok(())
    }
    fn serialize_u8(self, _: u8) -> R {
        Ok(())
    }
    fn serialize_u16(self, _: u16) -> R {
        Ok(())
    }
    fn serialize_u32(self, _: u32) -> R {
        Ok(())
    }
    fn serialize_u64(self, _: u64) -> R {
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> R {
        self.float(v as f64);
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> R {
        self.float(v);
        Ok(())
    }
    fn serialize_char(self, _: char) -> R {
        Ok(())
    }
    fn serialize_str(self, _: &str) -> R {
        Ok(())
    }
    fn serialize_bytes(self, _: &[u8]) -> R {
        Ok(())
    }
    fn serialize_none(self) -> R {
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> R {
        v.serialize(self)
    }
    fn serialize_unit(self) -> R {
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> R {
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> R {
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> R {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> R {
        self.nested(format!(".{variant}"), v)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Seq<'a>, Never> {
        Ok(Seq { w: self, k: 0 })
    }
    fn serialize_tuple(self, _: usize) -> Result<Seq<'a>, Never> {
        Ok(Seq { w: self, k: 0 })
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Seq<'a>, Never> {
        Ok(Seq { w: self, k: 0 })
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Seq<'a>, Never> {
        Ok(Seq { w: self, k: 0 })
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Map<'a>, Never> {
        Ok(Map {
            w: self,
            key: String::new(),
        })
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Map<'a>, Never> {
        Ok(Map {
            w: self,
            key: String::new(),
        })
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Map<'a>, Never> {
        Ok(Map {
            w: self,
            key: String::new(),
        })
    }
}

/// A sequence or tuple being walked.
pub struct Seq<'a> {
    w: &'a mut Walker,
    k: usize,
}

impl Seq<'_> {
    fn item<T: Serialize + ?Sized>(&mut self, v: &T) -> R {
        let step = format!("[{}]", self.k);
        self.k += 1;
        self.w.nested(step, v)
    }
}

impl ser::SerializeSeq for Seq<'_> {
    type Ok = ();
    type Error = Never;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> R {
        self.item(v)
    }
    fn end(self) -> R {
        Ok(())
    }
}

impl ser::SerializeTuple for Seq<'_> {
    type Ok = ();
    type Error = Never;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> R {
        self.item(v)
    }
    fn end(self) -> R {
        Ok(())
    }
}

impl ser::SerializeTupleStruct for Seq<'_> {
    type Ok = ();
    type Error = Never;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> R {
        self.item(v)
    }
    fn end(self) -> R {
        Ok(())
    }
}

impl ser::SerializeTupleVariant for Seq<'_> {
    type Ok = ();
    type Error = Never;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> R {
        self.item(v)
    }
    fn end(self) -> R {
        Ok(())
    }
}

/// A map or struct being walked; map keys are named by their string form when they have one.
pub struct Map<'a> {
    w: &'a mut Walker,
    key: String,
}

/// Serializes a map key to a string (for the path only).
struct KeyName;

impl ser::Serializer for KeyName {
    type Ok = String;
    type Error = std::fmt::Error;
    type SerializeSeq = ser::Impossible<String, std::fmt::Error>;
    type SerializeTuple = ser::Impossible<String, std::fmt::Error>;
    type SerializeTupleStruct = ser::Impossible<String, std::fmt::Error>;
    type SerializeTupleVariant = ser::Impossible<String, std::fmt::Error>;
    type SerializeMap = ser::Impossible<String, std::fmt::Error>;
    type SerializeStruct = ser::Impossible<String, std::fmt::Error>;
    type SerializeStructVariant = ser::Impossible<String, std::fmt::Error>;
    fn serialize_str(self, v: &str) -> Result<String, std::fmt::Error> {
        Ok(v.to_string())
    }
    fn serialize_bool(self, v: bool) -> Result<String, std::fmt::Error> {
        Ok(v.to_string())
    }
    fn serialize_i8(self, v: i8) -> Result<String, std::fmt::Error> {
        Ok(v.to_string())
    }
    fn serialize_i16(self, v: i16) -> Result<String, std::fmt::Error> {
        Ok(v.to_string())
    }
    fn serialize_i32(self, v: i32) -> Result<String, std::fmt::Error> {
        Ok(v.to_string())
    }
    fn serialize_i64(self, v: i64) -> Result<String, std::fmt::Error> {
        Ok(v.to_string())
    }
    fn serialize_u8(self, v: u8) -> Result<String, std::fmt::Error> {
        Ok(v.to_string())
    }
    fn serialize_u16(self, v: u16) -> Result<String, std::fmt::Error> {
        Ok(v.to_string())
    }
    fn serialize_u32(self, v: u32) -> Result<String, std::fmt::Error> {
        Ok(v.to_string())
    }
    fn serialize_u64(self, v: u64) -> Result<String, std::fmt::Error> {
        Ok(v.to_string())
    }
    fn serialize_f32(self, v: f32) -> Result<String, std::fmt::Error> {
        Ok(v.to_string())
    }
    fn serialize_f64(self, v: f64) -> Result<String, std::fmt::Error> {
        Ok(v.to_string())
    }
    fn serialize_char(self, v: char) -> Result<String, std::fmt::Error> {
        Ok(v.to_string())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<String, std::fmt::Error> {
        Ok("?".into())
    }
    fn serialize_none(self) -> Result<String, std::fmt::Error> {
        Ok("?".into())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<String, std::fmt::Error> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<String, std::fmt::Error> {
        Ok("?".into())
    }
    fn serialize_unit_struct(self, n: &'static str) -> Result<String, std::fmt::Error> {
        Ok(n.into())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        v: &'static str,
    ) -> Result<String, std::fmt::Error> {
        Ok(v.into())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<String, std::fmt::Error> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        v: &'static str,
        _: &T,
    ) -> Result<String, std::fmt::Error> {
        Ok(v.into())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, std::fmt::Error> {
        Err(std::fmt::Error)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, std::fmt::Error> {
        Err(std::fmt::Error)
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, std::fmt::Error> {
        Err(std::fmt::Error)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, std::fmt::Error> {
        Err(std::fmt::Error)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, std::fmt::Error> {
        Err(std::fmt::Error)
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, std::fmt::Error> {
        Err(std::fmt::Error)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, std::fmt::Error> {
        Err(std::fmt::Error)
    }
}

impl ser::SerializeMap for Map<'_> {
    type Ok = ();
    type Error = Never;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> R {
        // A float key is checked too (a map keyed by a figure would render it as a string).
        k.serialize(&mut *self.w)?;
        self.key = k.serialize(KeyName).unwrap_or_else(|_| "?".into());
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> R {
        let step = format!("[{:?}]", self.key);
        self.w.nested(step, v)
    }
    fn end(self) -> R {
        Ok(())
    }
}

impl ser::SerializeStruct for Map<'_> {
    type Ok = ();
    type Error = Never;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> R {
        self.w.nested(format!(".{key}"), v)
    }
    fn end(self) -> R {
        Ok(())
    }
}

impl ser::SerializeStructVariant for Map<'_> {
    type Ok = ();
    type Error = Never;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> R {
        self.w.nested(format!(".{key}"), v)
    }
    fn end(self) -> R {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    /// A NaN two levels down is found with its path; finite numbers and `None` are not.
    #[test]
    fn finds_nan_and_infinity_with_their_path() {
        #[derive(serde::Serialize)]
        struct Inner {
            a: f64,
            b: Option<f64>,
        }
        #[derive(serde::Serialize)]
        struct Outer {
            x: Vec<Inner>,
        }
        let v = Outer {
            x: vec![
                Inner { a: 1.0, b: None },
                Inner {
                    a: f64::NAN,
                    b: Some(f64::INFINITY),
                },
            ],
        };
        assert_eq!(
            super::non_finite("v", &v),
            vec!["v.x[1].a = NaN".to_string(), "v.x[1].b = inf".to_string()]
        );
    }

    /// `+inf` as the upper edge of a `*_p95` pair is the open-ended bucket, not a finding; NaN
    /// there, `-inf`, `+inf` as the lower edge or in any other pair still are.
    #[test]
    fn an_open_p95_upper_edge_is_not_a_finding() {
        #[derive(serde::Serialize)]
        struct Demand {
            log_write_p95: Option<(f64, f64)>,
            large_read_p95: (f64, f64),
            single_block_read_p95: (f64, f64),
            range: (f64, f64),
        }
        let inf = f64::INFINITY;
        let v = Demand {
            log_write_p95: Some((0.512, inf)),
            large_read_p95: (inf, f64::NAN),
            single_block_read_p95: (1.0, -inf),
            range: (1.0, inf),
        };
        assert_eq!(
            super::non_finite("d", &v),
            vec![
                "d.large_read_p95[0] = inf",
                "d.large_read_p95[1] = NaN",
                "d.single_block_read_p95[1] = -inf",
                "d.range[1] = inf",
            ]
        );
    }
}
