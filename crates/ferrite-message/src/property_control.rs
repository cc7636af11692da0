//! Where a message's properties go at MQPUT and MQGET: out of (or into) an MQRFH2 in the
//! message data, into a message handle, or away, as the queue's PROPCTL and the getter's
//! MQGMO property options decide (IBM MQ "PropertyControl (MQLONG)" and "MQGMO options").
//!
//! At MQPUT, [`split_message_data`] takes the MQRFH2 chain at the front of the data apart:
//! property folders become [`MessageProperties`] (stored beside the message, where a selector
//! can reach them without parsing), other folders and the body are kept.
//!
//! At MQGET, [`property_delivery`] decides, and [`join_message_data`] rebuilds the data with an
//! MQRFH2 when the properties travel in it:
//!
//! | MQGMO option                    | delivery                                                  |
//! |---------------------------------|-----------------------------------------------------------|
//! | MQGMO_PROPERTIES_FORCE_MQRFH2   | in an MQRFH2, even with a message handle                  |
//! | MQGMO_NO_PROPERTIES             | discarded                                                 |
//! | MQGMO_PROPERTIES_IN_HANDLE      | in the message handle                                     |
//! | MQGMO_PROPERTIES_COMPATIBILITY  | in an MQRFH2 if any is in `mcd`/`jms`/`usr`/`mqext`, else discarded |
//! | MQGMO_PROPERTIES_AS_Q_DEF (0)   | by PROPCTL: FORCE -> MQRFH2; NONE -> discarded; with a message handle -> handle; ALL -> MQRFH2; COMPAT -> as COMPATIBILITY above; V6COMPAT -> the data as it was put |
//!
//! Interpretation to confirm against IBM MQ: that PROPCTL(NONE) discards properties even when
//! the getter supplies a message handle.

use ferrite_constants::{
    format::MQFMT_RF_HEADER_2,
    get_options::{
        MQGMO_NO_PROPERTIES, MQGMO_PROPERTIES_COMPATIBILITY, MQGMO_PROPERTIES_FORCE_MQRFH2,
        MQGMO_PROPERTIES_IN_HANDLE,
    },
    misc::{MQPROP_ALL, MQPROP_COMPATIBILITY, MQPROP_FORCE_MQRFH2, MQPROP_NONE, MQPROP_V6COMPAT},
};
use ferrite_protocol::ByteOrder;

use crate::folder::Folder;
use crate::properties::{MessageProperties, PropertyError};
use crate::rfh2::{parse_chain, Rfh2, Rfh2Error};

/// A queue's PROPCTL attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PropertyControl {
    /// PROPCTL(COMPAT), MQPROP_COMPATIBILITY (0): the default.
    Compatibility,
    /// PROPCTL(NONE), MQPROP_NONE (1).
    None,
    /// PROPCTL(ALL), MQPROP_ALL (2).
    All,
    /// PROPCTL(FORCE), MQPROP_FORCE_MQRFH2 (3).
    ForceRfh2,
    /// PROPCTL(V6COMPAT), MQPROP_V6COMPAT (4).
    V6Compatibility,
}

impl PropertyControl {
    /// From MQPROP_*; `None` for other values.
    pub fn from_mqprop(value: i32) -> Option<PropertyControl> {
        Some(match value {
            MQPROP_COMPATIBILITY => PropertyControl::Compatibility,
            MQPROP_NONE => PropertyControl::None,
            MQPROP_ALL => PropertyControl::All,
            MQPROP_FORCE_MQRFH2 => PropertyControl::ForceRfh2,
            MQPROP_V6COMPAT => PropertyControl::V6Compatibility,
            _ => return None,
        })
    }

    /// The MQPROP_* value.
    pub fn mqprop(self) -> i32 {
        match self {
            PropertyControl::Compatibility => MQPROP_COMPATIBILITY,
            PropertyControl::None => MQPROP_NONE,
            PropertyControl::All => MQPROP_ALL,
            PropertyControl::ForceRfh2 => MQPROP_FORCE_MQRFH2,
            PropertyControl::V6Compatibility => MQPROP_V6COMPAT,
        }
    }
}

/// Where the properties go at MQGET.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PropertyDelivery {
    /// Into the getter's message handle; the data carries no property folders.
    InHandle,
    /// Into an MQRFH2 at the front of the data ([`join_message_data`]).
    InRfh2,
    /// Nowhere: the getter sees the body (and any non-property folders) only.
    Discarded,
    /// The data exactly as it was put (PROPCTL(V6COMPAT)).
    AsPut,
}

/// The folders whose properties make PROPCTL(COMPAT) deliver an MQRFH2.
const COMPATIBILITY_FOLDERS: [&str; 4] = ["mcd.", "jms.", "usr.", "mqext."];

fn has_compatibility_property(properties: &MessageProperties) -> bool {
    properties.iter().any(|(name, _)| {
        // Canonical names drop "usr.": a name without a prefixed folder is a usr property.
        let prefixed = name
            .split_once('.')
            .is_some_and(|(first, _)| crate::properties::is_prefixed_property_folder(first));
        !prefixed || COMPATIBILITY_FOLDERS.iter().any(|p| name.starts_with(p))
    })
}

/// Decides where `properties` go for a getter with `get_options` (MQGMO_*), on a queue with
/// `control`, with or without a message handle.
pub fn property_delivery(
    get_options: i32,
    handle_supplied: bool,
    control: PropertyControl,
    properties: &MessageProperties,
) -> PropertyDelivery {
    let compatibility = || {
        if has_compatibility_property(properties) {
            PropertyDelivery::InRfh2
        } else {
            PropertyDelivery::Discarded
        }
    };
    if get_options & MQGMO_PROPERTIES_FORCE_MQRFH2 != 0 {
        return PropertyDelivery::InRfh2;
    }
    if get_options & MQGMO_NO_PROPERTIES != 0 {
        return PropertyDelivery::Discarded;
    }
    if get_options & MQGMO_PROPERTIES_IN_HANDLE != 0 {
        return PropertyDelivery::InHandle;
    }
    if get_options & MQGMO_PROPERTIES_COMPATIBILITY != 0 {
        return compatibility();
    }
    match control {
        PropertyControl::ForceRfh2 => PropertyDelivery::InRfh2,
        PropertyControl::None => PropertyDelivery::Discarded,
        PropertyControl::V6Compatibility => PropertyDelivery::AsPut,
        _ if handle_supplied => PropertyDelivery::InHandle,
        PropertyControl::All if properties.is_empty() => PropertyDelivery::Discarded,
        PropertyControl::All => PropertyDelivery::InRfh2,
        PropertyControl::Compatibility => compatibility(),
    }
}

/// Message data taken apart at MQPUT.
#[derive(Clone, Debug, PartialEq)]
pub struct SplitMessage {
    /// Properties from every MQRFH2 of the leading chain.
    pub properties: MessageProperties,
    /// Folders of those headers that hold no properties (kept for the getter).
    pub other_folders: Vec<Folder>,
    /// Where the body starts in the data.
    pub body_offset: usize,
    /// Encoding of the body.
    pub body_encoding: i32,
    /// CodedCharSetId of the body.
    pub body_coded_char_set_id: i32,
    /// Format of the body.
    pub body_format: [u8; 8],
}

/// Why message data could not be taken apart: its MQRFH2 or its property folders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SplitError {
    /// An MQRFH2 is malformed.
    Rfh2(Rfh2Error),
    /// A property folder holds a bad value or name.
    Property(PropertyError),
}

impl SplitError {
    /// MQ's reason code of the underlying error.
    pub fn reason_code(&self) -> i32 {
        match self {
            SplitError::Rfh2(e) => e.reason_code(),
            SplitError::Property(e) => e.reason_code(),
        }
    }
}

impl std::fmt::Display for SplitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SplitError::Rfh2(e) => e.fmt(f),
            SplitError::Property(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SplitError {}

/// Takes the MQRFH2 chain at the front of `data` apart (MQMD `encoding`, `coded_char_set_id`,
/// `format`). Data that does not start with an MQRFH2 gives no properties and body offset 0.
pub fn split_message_data(
    encoding: i32,
    coded_char_set_id: i32,
    format: [u8; 8],
    data: &[u8],
) -> Result<SplitMessage, SplitError> {
    let chain = parse_chain(data, encoding, coded_char_set_id, format).map_err(SplitError::Rfh2)?;
    let mut folders = Vec::new();
    for (header, order) in &chain.headers {
        folders.extend(header.folders(*order).map_err(SplitError::Rfh2)?);
    }
    let (properties, other_folders) =
        MessageProperties::from_folders(&folders).map_err(SplitError::Property)?;
    Ok(SplitMessage {
        properties,
        other_folders,
        body_offset: chain.body_offset,
        body_encoding: chain.body_encoding,
        body_coded_char_set_id: chain.body_coded_char_set_id,
        body_format: chain.body_format,
    })
}

/// Builds the data a getter receives when properties travel in an MQRFH2: one MQRFH2 (UTF-8
/// folders, integers in `order`, the byte order of the MQMD the getter receives) holding
/// `other_folders` then the property folders, followed by `body`. Returns the MQMD Format for
/// the result (`MQHRF2  `) and the data. With no folders at all, returns the body unchanged
/// under its own format.
pub fn join_message_data(
    properties: &MessageProperties,
    other_folders: &[Folder],
    body_encoding: i32,
    body_coded_char_set_id: i32,
    body_format: [u8; 8],
    body: &[u8],
    order: ByteOrder,
) -> Result<([u8; 8], Vec<u8>), Rfh2Error> {
    let property_folders = properties.to_folders();
    if other_folders.is_empty() && property_folders.is_empty() {
        return Ok((body_format, body.to_vec()));
    }
    let mut header = Rfh2::new(body_encoding, body_coded_char_set_id, body_format);
    for folder in other_folders.iter().chain(&property_folders) {
        header.push_folder(folder, order)?;
    }
    let mut data = header.build(order)?;
    data.extend_from_slice(body);
    Ok((MQFMT_RF_HEADER_2, data))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::properties::PropertyValue;
    use ferrite_constants::format::MQFMT_STRING;

    fn with(names: &[&str]) -> MessageProperties {
        let mut properties = MessageProperties::new();
        for name in names {
            properties
                .set_unchecked_jms(name, PropertyValue::Int32(1))
                .unwrap();
        }
        properties
    }

    #[test]
    fn mqprop_values() {
        for value in 0..=4 {
            assert_eq!(PropertyControl::from_mqprop(value).unwrap().mqprop(), value);
        }
        assert_eq!(PropertyControl::from_mqprop(5), None);
    }

    #[test]
    fn delivery_rules() {
        use PropertyControl as C;
        use PropertyDelivery as D;
        let user = with(&["Colour"]);
        let mqps_only = with(&["mqps.Top"]);
        let none = MessageProperties::new();
        for (options, handle, control, properties, expected) in [
            (
                MQGMO_PROPERTIES_FORCE_MQRFH2,
                true,
                C::None,
                &user,
                D::InRfh2,
            ),
            (MQGMO_NO_PROPERTIES, true, C::All, &user, D::Discarded),
            (
                MQGMO_PROPERTIES_IN_HANDLE,
                false,
                C::None,
                &user,
                D::InHandle,
            ),
            (
                MQGMO_PROPERTIES_COMPATIBILITY,
                true,
                C::All,
                &mqps_only,
                D::Discarded,
            ),
            (
                MQGMO_PROPERTIES_COMPATIBILITY,
                false,
                C::All,
                &user,
                D::InRfh2,
            ),
            (0, false, C::Compatibility, &user, D::InRfh2),
            (0, false, C::Compatibility, &mqps_only, D::Discarded),
            (0, true, C::Compatibility, &user, D::InHandle),
            (0, false, C::All, &mqps_only, D::InRfh2),
            (0, false, C::All, &none, D::Discarded),
            (0, true, C::All, &user, D::InHandle),
            (0, true, C::None, &user, D::Discarded),
            (0, true, C::ForceRfh2, &user, D::InRfh2),
            (0, false, C::V6Compatibility, &user, D::AsPut),
        ] {
            assert_eq!(
                property_delivery(options, handle, control, properties),
                expected,
                "{options:#x} handle={handle} {control:?}"
            );
        }
    }

    #[test]
    fn split_then_join_round_trips() {
        let mut properties = MessageProperties::new();
        properties
            .set("Colour", PropertyValue::String("red".into()))
            .unwrap();
        let others = vec![Folder::parse("<psc><Command>Publish</Command></psc>").unwrap()];
        let (format, data) = join_message_data(
            &properties,
            &others,
            273,
            1208,
            MQFMT_STRING,
            b"body",
            ByteOrder::Big,
        )
        .unwrap();
        assert_eq!(format, MQFMT_RF_HEADER_2);
        let split = split_message_data(273, 1208, format, &data).unwrap();
        assert_eq!(split.properties, properties);
        assert_eq!(split.other_folders, others);
        assert_eq!(&data[split.body_offset..], b"body");
        assert_eq!(split.body_format, MQFMT_STRING);

        let plain = split_message_data(273, 1208, MQFMT_STRING, b"body").unwrap();
        assert!(plain.properties.is_empty());
        assert_eq!(plain.body_offset, 0);
        let (format, data) = join_message_data(
            &MessageProperties::new(),
            &[],
            273,
            1208,
            MQFMT_STRING,
            b"body",
            ByteOrder::Big,
        )
        .unwrap();
        assert_eq!((format, data.as_slice()), (MQFMT_STRING, &b"body"[..]));
    }

    #[test]
    fn split_reports_reason_codes() {
        let error = split_message_data(273, 1208, MQFMT_RF_HEADER_2, b"RFH ").unwrap_err();
        assert_eq!(error.reason_code(), 2334);
        let mut header = Rfh2::new(273, 1208, MQFMT_STRING);
        header
            .push_folder(
                &Folder::parse("<usr><a dt='i4'>x</a></usr>").unwrap(),
                ByteOrder::Big,
            )
            .unwrap();
        let data = header.build(ByteOrder::Big).unwrap();
        let error = split_message_data(273, 1208, MQFMT_RF_HEADER_2, &data).unwrap_err();
        assert_eq!(error.reason_code(), 2421);
        assert!(
            error.to_string().contains("expected a 32-bit integer"),
            "{error}"
        );
    }
}
