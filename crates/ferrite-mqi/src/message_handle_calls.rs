//! MQCRTMH, MQDLTMH, MQSETMP, MQINQMP and MQDLTMP on an in-process connection. The handles
//! themselves, and what MQPUT and MQGET do with them, are `ferrite_message::message_handles`
//! (shared with the client library; `crate::message_handles` re-exports it).

use crate::error::MqResult;
use crate::message_handles::{Hmsg, PropertyValue};

impl crate::Connection {
    /// MQCRTMH: a message handle on this connection.
    pub fn create_message_handle(&mut self, options: i32) -> MqResult<Hmsg> {
        self.message_handles.create(options)
    }

    /// MQDLTMH.
    pub fn delete_message_handle(&mut self, hmsg: Hmsg) -> MqResult<()> {
        self.message_handles.delete(hmsg)
    }

    /// MQSETMP.
    pub fn set_message_property(
        &mut self,
        hmsg: Hmsg,
        name: &str,
        value: PropertyValue,
    ) -> MqResult<()> {
        self.message_handles.set_property(hmsg, name, value)
    }

    /// MQINQMP (see [`crate::message_handles::MessageHandles::inquire_property`]).
    pub fn inquire_message_property(
        &mut self,
        hmsg: Hmsg,
        pattern: &str,
        options: i32,
        wanted_type: i32,
    ) -> MqResult<(String, PropertyValue)> {
        self.message_handles
            .inquire_property(hmsg, pattern, options, wanted_type)
    }

    /// MQDLTMP.
    pub fn delete_message_property(&mut self, hmsg: Hmsg, name: &str) -> MqResult<()> {
        self.message_handles.delete_property(hmsg, name)
    }
}
