//! Message handles and message properties: MQCRTMH, MQDLTMH, MQSETMP, MQINQMP, MQDLTMP, the
//! handles MQPUT takes (MQPMO OriginalMsgHandle / NewMsgHandle) and MQGET fills (MQGMO
//! MsgHandle), and the queue's PROPCTL applied at MQGET. The in-process MQI (`ferrite-mqi`,
//! whose connection holds a [`MessageHandles`]) and the client library (whose handles live in
//! the client, as in MQ's client libraries) both use this module.
//!
//! Messages keep their properties where the putter placed them: in an MQRFH2 at the front of
//! the data. A put with a message handle builds that MQRFH2 from the handle
//! ([`attach_properties`]); a get decides with [`crate::property_control`] where the
//! properties go ([`deliver_properties`]): left in the data, taken out into the getter's
//! handle, or taken out and dropped. Taking out rebuilds the data without the property folders
//! (other folders of the MQRFH2 stay) and gives the MQMD the body's Format, Encoding and
//! CodedCharSetId when no MQRFH2 is left.
//!
//! A connection holds at most [`MESSAGE_HANDLES_PER_CONNECTION_MAX`] handles. Handles belong
//! to their connection and die with it, as in MQ.

use std::borrow::Cow;
use std::collections::HashMap;

use ferrite_constants::{
    format::MQFMT_RF_HEADER_2,
    get_options::{
        MQGMO_NO_PROPERTIES, MQGMO_PROPERTIES_COMPATIBILITY, MQGMO_PROPERTIES_FORCE_MQRFH2,
        MQGMO_PROPERTIES_IN_HANDLE,
    },
    misc::{
        MQCMHO_NO_VALIDATION, MQCMHO_VALIDATE, MQIMPO_CONVERT_TYPE, MQIMPO_CONVERT_VALUE,
        MQIMPO_INQ_NEXT, MQIMPO_INQ_PROP_UNDER_CURSOR, MQIMPO_QUERY_LENGTH, MQTYPE_AS_SET,
    },
    reason::*,
};
use ferrite_mqi_types::{MqError, MqResult, Mqmd, Mqpmo};
use ferrite_protocol::ByteOrder;

pub use crate::property_control::PropertyControl;
use crate::property_control::{
    join_message_data, property_delivery, split_message_data, PropertyDelivery,
};
pub use crate::{MessageProperties, PropertyValue};

pub use ferrite_mqi_types::{Hmsg, MQHM_NONE};

/// Most message handles one connection may hold at once (MQRC_HMSG_ERROR beyond).
pub const MESSAGE_HANDLES_PER_CONNECTION_MAX: usize = 4096;

/// One handle: its properties and MQINQMP's cursor.
#[derive(Debug, Default)]
struct MessageHandle {
    properties: MessageProperties,
    /// Position of the property MQINQMP returned last (MQIMPO_INQ_NEXT continues after it).
    cursor: Option<usize>,
}

/// A connection's message handles.
#[derive(Debug)]
pub struct MessageHandles {
    next: i64,
    handles: HashMap<i64, MessageHandle>,
}

impl Default for MessageHandles {
    fn default() -> MessageHandles {
        MessageHandles {
            next: 1,
            handles: HashMap::new(),
        }
    }
}

fn failed<T>(reason: i32) -> MqResult<T> {
    Err(MqError::failed(reason))
}

impl MessageHandles {
    /// MQCRTMH: a new handle with no properties. Options: MQCMHO_DEFAULT_VALIDATION,
    /// MQCMHO_VALIDATE or MQCMHO_NO_VALIDATION (property names are always checked here).
    pub fn create(&mut self, options: i32) -> MqResult<Hmsg> {
        if options & !(MQCMHO_VALIDATE | MQCMHO_NO_VALIDATION) != 0
            || options & MQCMHO_VALIDATE != 0 && options & MQCMHO_NO_VALIDATION != 0
        {
            return failed(MQRC_CMHO_ERROR);
        }
        if self.handles.len() >= MESSAGE_HANDLES_PER_CONNECTION_MAX {
            return failed(MQRC_HMSG_ERROR);
        }
        let hmsg = self.next;
        self.next += 1;
        self.handles.insert(hmsg, MessageHandle::default());
        Ok(Hmsg(hmsg))
    }

    /// MQDLTMH.
    pub fn delete(&mut self, hmsg: Hmsg) -> MqResult<()> {
        match self.handles.remove(&hmsg.0) {
            Some(_) => Ok(()),
            None => failed(MQRC_HMSG_ERROR),
        }
    }

    fn handle(&mut self, hmsg: Hmsg) -> MqResult<&mut MessageHandle> {
        self.handles
            .get_mut(&hmsg.0)
            .ok_or_else(|| MqError::failed(MQRC_HMSG_ERROR))
    }

    /// The properties of `hmsg`.
    pub fn properties(&self, hmsg: Hmsg) -> MqResult<&MessageProperties> {
        self.handles
            .get(&hmsg.0)
            .map(|handle| &handle.properties)
            .ok_or_else(|| MqError::failed(MQRC_HMSG_ERROR))
    }

    /// MQSETMP: set `name` (a new property goes last; an existing one keeps its place).
    pub fn set_property(&mut self, hmsg: Hmsg, name: &str, value: PropertyValue) -> MqResult<()> {
        let handle = self.handle(hmsg)?;
        handle
            .properties
            .set(name, value)
            .map_err(|error| MqError::failed(error.reason_code()))
    }

    /// MQINQMP: the first property matching `pattern` (`%` wildcard at the end), the next one
    /// after the cursor with MQIMPO_INQ_NEXT, or the one under the cursor with
    /// MQIMPO_INQ_PROP_UNDER_CURSOR; with MQIMPO_CONVERT_TYPE the value converted to
    /// `wanted_type` (MQTYPE_AS_SET: as set). MQRC_PROPERTY_NOT_AVAILABLE when none is left.
    pub fn inquire_property(
        &mut self,
        hmsg: Hmsg,
        pattern: &str,
        options: i32,
        wanted_type: i32,
    ) -> MqResult<(String, PropertyValue)> {
        let known = MQIMPO_INQ_NEXT
            | MQIMPO_INQ_PROP_UNDER_CURSOR
            | MQIMPO_CONVERT_TYPE
            | MQIMPO_CONVERT_VALUE
            | MQIMPO_QUERY_LENGTH;
        if options & !known != 0
            || (options & MQIMPO_INQ_NEXT != 0 && options & MQIMPO_INQ_PROP_UNDER_CURSOR != 0)
        {
            return failed(MQRC_IMPO_ERROR);
        }
        let handle = self.handle(hmsg)?;
        let from = if options & MQIMPO_INQ_NEXT != 0 {
            handle.cursor.map_or(0, |cursor| cursor + 1)
        } else if options & MQIMPO_INQ_PROP_UNDER_CURSOR != 0 {
            match handle.cursor {
                Some(cursor) => cursor,
                None => return failed(MQRC_PROPERTY_NOT_AVAILABLE),
            }
        } else {
            0
        };
        let Some((position, name, value)) = handle.properties.inquire(pattern, from) else {
            return failed(MQRC_PROPERTY_NOT_AVAILABLE);
        };
        let name = name.to_string();
        let value = if wanted_type == MQTYPE_AS_SET || wanted_type == value.mq_type() {
            value.clone()
        } else if options & MQIMPO_CONVERT_TYPE != 0 {
            value
                .convert(wanted_type)
                .map_err(|error| MqError::failed(error.reason_code()))?
        } else {
            return failed(MQRC_PROPERTY_TYPE_ERROR);
        };
        handle.cursor = Some(position);
        Ok((name, value))
    }

    /// MQDLTMP: remove `name` (MQRC_PROPERTY_NOT_AVAILABLE when it is not there).
    pub fn delete_property(&mut self, hmsg: Hmsg, name: &str) -> MqResult<()> {
        let handle = self.handle(hmsg)?;
        match handle.properties.remove(name) {
            Some(_) => {
                handle.cursor = None;
                Ok(())
            }
            None => failed(MQRC_PROPERTY_NOT_AVAILABLE),
        }
    }

    /// MQGET into `hmsg`: the message's properties replace the handle's.
    pub fn replace_properties(
        &mut self,
        hmsg: Hmsg,
        properties: MessageProperties,
    ) -> MqResult<()> {
        let handle = self.handle(hmsg)?;
        handle.properties = properties;
        handle.cursor = None;
        Ok(())
    }
}

/// A queue's PROPCTL keyword as a [`PropertyControl`].
pub fn property_control(keyword: &str) -> PropertyControl {
    match keyword {
        "ALL" => PropertyControl::All,
        "FORCE" => PropertyControl::ForceRfh2,
        "NONE" => PropertyControl::None,
        "V6COMPAT" => PropertyControl::V6Compatibility,
        _ => PropertyControl::Compatibility,
    }
}

/// The byte order an MQRFH2 built for an MQMD with `encoding` uses (native when it names none).
fn byte_order(encoding: i32) -> ByteOrder {
    ByteOrder::from_mq_encoding(encoding).unwrap_or(if cfg!(target_endian = "little") {
        ByteOrder::Little
    } else {
        ByteOrder::Big
    })
}

/// [`attach_properties`] with the handles a put's MQPMO names: OriginalMsgHandle and
/// NewMsgHandle.
pub fn attach_pmo_properties(
    handles: &MessageHandles,
    pmo: &Mqpmo,
    md: &mut Mqmd,
    data: &[u8],
) -> MqResult<Option<Vec<u8>>> {
    attach_properties(
        handles,
        pmo.original_msg_handle,
        pmo.new_msg_handle,
        md,
        data,
    )
}

/// MQPUT with message handles: the message data with the handles' properties in an MQRFH2 in
/// front (NewMsgHandle's properties over OriginalMsgHandle's), and `md` describing it (Format
/// MQHRF2, the body's Format/Encoding/CCSID inside the header). `None` when no handle has a
/// property: the data goes as given.
pub fn attach_properties(
    handles: &MessageHandles,
    original: Option<Hmsg>,
    new: Option<Hmsg>,
    md: &mut Mqmd,
    data: &[u8],
) -> MqResult<Option<Vec<u8>>> {
    let mut properties = MessageProperties::new();
    for hmsg in [original, new].into_iter().flatten() {
        if hmsg.0 == MQHM_NONE {
            continue;
        }
        for (name, value) in handles.properties(hmsg)?.iter() {
            properties
                .set(name, value.clone())
                .map_err(|error| MqError::failed(error.reason_code()))?;
        }
    }
    if properties.is_empty() {
        return Ok(None);
    }
    let (format, data) = join_message_data(
        &properties,
        &[],
        md.encoding,
        md.coded_char_set_id,
        md.format,
        data,
        byte_order(md.encoding),
    )
    .map_err(|error| MqError::failed(error.reason_code()))?;
    md.format = format;
    Ok(Some(data))
}

/// MQGET: where the message's properties go (the getter's MQGMO options, whether it gave a
/// message handle, the queue's PROPCTL, asked of `control` only when the message has an
/// MQRFH2). Returns the data the getter receives (`md` adjusted
/// when the MQRFH2 is taken out) and, for a getter with a handle, the properties to put in it.
/// Data whose MQRFH2 cannot be parsed is delivered as it was put.
pub fn deliver_properties<'a>(
    get_options: i32,
    handle_supplied: bool,
    control: impl FnOnce() -> PropertyControl,
    md: &mut Mqmd,
    data: &'a [u8],
) -> (Cow<'a, [u8]>, Option<MessageProperties>) {
    let as_put = |properties| (Cow::Borrowed(data), properties);
    if md.format != MQFMT_RF_HEADER_2 {
        // No MQRFH2: no properties (a handle is emptied).
        return as_put(handle_supplied.then(MessageProperties::new));
    }
    // The queue's PROPCTL is read only for a message that has an MQRFH2.
    let control = control();
    // These deliver the MQRFH2 as it was put, whatever it holds: no need to parse it.
    let property_options = MQGMO_PROPERTIES_FORCE_MQRFH2
        | MQGMO_NO_PROPERTIES
        | MQGMO_PROPERTIES_IN_HANDLE
        | MQGMO_PROPERTIES_COMPATIBILITY;
    let forced = get_options & MQGMO_PROPERTIES_FORCE_MQRFH2 != 0
        || (get_options & property_options == 0
            && matches!(
                control,
                PropertyControl::ForceRfh2 | PropertyControl::V6Compatibility
            ));
    if forced {
        return as_put(None);
    }
    let Ok(split) = split_message_data(md.encoding, md.coded_char_set_id, md.format, data) else {
        return as_put(None);
    };
    match property_delivery(get_options, handle_supplied, control, &split.properties) {
        PropertyDelivery::InRfh2 | PropertyDelivery::AsPut => as_put(None),
        delivery @ (PropertyDelivery::InHandle | PropertyDelivery::Discarded) => {
            let body = &data[split.body_offset..];
            let Ok((format, rebuilt)) = join_message_data(
                &MessageProperties::new(),
                &split.other_folders,
                split.body_encoding,
                split.body_coded_char_set_id,
                split.body_format,
                body,
                byte_order(md.encoding),
            ) else {
                return as_put(None);
            };
            if format != MQFMT_RF_HEADER_2 {
                md.format = split.body_format;
                md.encoding = split.body_encoding;
                md.coded_char_set_id = split.body_coded_char_set_id;
            }
            let properties = (delivery == PropertyDelivery::InHandle && handle_supplied)
                .then_some(split.properties);
            (Cow::Owned(rebuilt), properties)
        }
    }
}
