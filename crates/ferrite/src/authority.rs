//! `ferrite auth`: MQ's setmqaut, dspmqaut and dmpmqaut for scripts, as the MQSC commands
//! they stand for (SET AUTHREC, DISPLAY ENTAUTH, DISPLAY AUTHREC, DELETE AUTHREC), run on the
//! queue manager's command server while it runs, in this process while it is stopped.
//!
//! ```text
//! ferrite auth set QM1 -t queue -n 'APP.**' -p app --add put,get --remove browse
//! ferrite auth show QM1 -t queue -n APP.ORDERS -p app        (dspmqaut)
//! ferrite auth list QM1 [-t queue] [-n 'APP.**'] [-p app | -g apps]   (dmpmqaut)
//! ferrite auth delete QM1 -t queue -n 'APP.**' -g apps
//! ```
//!
//! Authority names are setmqaut's (put, get, browse, inq, set, connect, altusr, passid,
//! passall, setid, setall, crt, dlt, chg, dsp, clr, ctrl, ctrlx, all, alladm, allmqi, none);
//! object types are setmqaut's `-t` names (qmgr, queue or q, process, namelist, channel,
//! authinfo, ...). User and group names are passed as they are written (quoted in MQSC).

/// What `ferrite auth` is asked to do, before it becomes MQSC.
pub struct AuthRequest<'a> {
    pub object_type: Option<&'a str>,
    pub profile: Option<&'a str>,
    pub principal: Option<&'a str>,
    pub group: Option<&'a str>,
}

/// `'text'` with MQSC's doubled quotes.
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

impl AuthRequest<'_> {
    /// PROFILE, OBJTYPE, PRINCIPAL and GROUP as given (OBJNAME instead of PROFILE for
    /// DISPLAY ENTAUTH).
    fn keywords(&self, profile_keyword: &str) -> Result<String, String> {
        let mut text = String::new();
        if let Some(profile) = self.profile {
            text.push_str(&format!(" {profile_keyword}({})", quoted(profile)));
        }
        if let Some(object_type) = self.object_type {
            if object_type.is_empty() || !object_type.chars().all(|c| c.is_ascii_alphabetic()) {
                return Err(format!("ferrite: '{object_type}' is not an object type"));
            }
            text.push_str(&format!(" OBJTYPE({object_type})"));
        }
        match (self.principal, self.group) {
            (Some(_), Some(_)) => return Err("ferrite: give -p or -g, not both".to_string()),
            (Some(principal), None) => text.push_str(&format!(" PRINCIPAL({})", quoted(principal))),
            (None, Some(group)) => text.push_str(&format!(" GROUP({})", quoted(group))),
            (None, None) => {}
        }
        Ok(text)
    }

    fn needs_entity(&self) -> Result<(), String> {
        if self.principal.is_none() && self.group.is_none() {
            return Err("ferrite: give a principal (-p) or a group (-g)".to_string());
        }
        if self.object_type.is_none() {
            return Err("ferrite: give the object type (-t)".to_string());
        }
        Ok(())
    }

    /// setmqaut: SET AUTHREC with AUTHADD and AUTHRMV.
    pub fn set(&self, add: &[String], remove: &[String]) -> Result<String, String> {
        self.needs_entity()?;
        if add.is_empty() && remove.is_empty() {
            return Err("ferrite: give authorities to --add or --remove".to_string());
        }
        let list = |names: &[String]| -> Result<String, String> {
            names
                .iter()
                .map(|name| {
                    let name = name.trim().trim_start_matches('+');
                    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphabetic()) {
                        Err(format!("ferrite: '{name}' is not an authority"))
                    } else {
                        Ok(name.to_ascii_uppercase())
                    }
                })
                .collect::<Result<Vec<_>, _>>()
                .map(|names| names.join(","))
        };
        let mut command = format!("SET AUTHREC{}", self.keywords("PROFILE")?);
        if !add.is_empty() {
            command.push_str(&format!(" AUTHADD({})", list(add)?));
        }
        if !remove.is_empty() {
            command.push_str(&format!(" AUTHRMV({})", list(remove)?));
        }
        Ok(command)
    }

    /// dspmqaut: DISPLAY ENTAUTH.
    pub fn show(&self) -> Result<String, String> {
        self.needs_entity()?;
        Ok(format!("DISPLAY ENTAUTH{}", self.keywords("OBJNAME")?))
    }

    /// dmpmqaut: DISPLAY AUTHREC.
    pub fn list(&self) -> Result<String, String> {
        Ok(format!("DISPLAY AUTHREC{}", self.keywords("PROFILE")?))
    }

    /// DELETE AUTHREC.
    pub fn delete(&self) -> Result<String, String> {
        self.needs_entity()?;
        Ok(format!("DELETE AUTHREC{}", self.keywords("PROFILE")?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_become_mqsc() {
        let request = AuthRequest {
            object_type: Some("queue"),
            profile: Some("APP.**"),
            principal: Some("o'brien"),
            group: None,
        };
        assert_eq!(
            request
                .set(&["put".into(), "+get".into()], &["browse".into()])
                .unwrap(),
            "SET AUTHREC PROFILE('APP.**') OBJTYPE(queue) PRINCIPAL('o''brien') AUTHADD(PUT,GET) AUTHRMV(BROWSE)"
        );
        assert_eq!(
            request.show().unwrap(),
            "DISPLAY ENTAUTH OBJNAME('APP.**') OBJTYPE(queue) PRINCIPAL('o''brien')"
        );
        assert!(request.set(&[], &[]).is_err());
        assert!(request.set(&["put)".into()], &[]).is_err());
        let nobody = AuthRequest {
            principal: None,
            ..request
        };
        assert!(nobody.show().is_err());
        assert_eq!(
            nobody.list().unwrap(),
            "DISPLAY AUTHREC PROFILE('APP.**') OBJTYPE(queue)"
        );
    }
}
