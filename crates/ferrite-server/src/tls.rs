//! TLS on SVRCONN channels (SSLCIPH, SSLCAUTH, SSLPEER), as MQ runs it: TLS from the first
//! byte of the socket, the queue manager's certificate from its key repository, the channel's
//! CipherSpec checked once INITIAL_DATA has named the channel.
//!
//! ## Key repository (MQ's SSLKEYR)
//! A directory, `channel_initiator.ssl_key_repository` in qm.toml (default `tls` inside the
//! queue manager's directory), holding PEM files:
//!
//! | file      | what                                                                  |
//! |-----------|-----------------------------------------------------------------------|
//! | `qm.crt`  | the queue manager's certificate, then any intermediate CA certificates |
//! | `qm.key`  | its private key (PKCS#8, PKCS#1 RSA or SEC1 EC), mode 0600            |
//! | `ca.crt`  | the CA certificates client certificates must chain to (optional)      |
//!
//! `ferrite tls create-cert QM` writes a self-signed `qm.crt`/`qm.key` pair for tests and
//! development ([`create_self_signed`]). The files are read at each TLS connection, so a
//! renewed certificate applies to the next connection (MQ needs REFRESH SECURITY TYPE(SSL)).
//!
//! ## A socket's life
//! 1. The first byte tells: 0x16 (a TLS handshake record) starts TLS, anything else is a
//!    plaintext `TSH`. The handshake offers every CipherSpec of [`CIPHER_SPECS`] (TLS 1.2 and
//!    1.3) and asks for a client certificate, verified against `ca.crt` when the client sends
//!    one. A handshake that fails (no common cipher suite, a client certificate that does not
//!    chain to `ca.crt`) ends the socket: the client reports its TLS library's error
//!    (IBM's Java client: MQRC_JSSE_ERROR, 2397).
//! 2. INITIAL_DATA names the channel; [`check_channel`] then compares: a TLS socket on a
//!    channel without SSLCIPH, a plaintext socket on a channel with SSLCIPH, or a negotiated
//!    cipher suite that is not the channel's CipherSpec is refused with STATUS_DATA
//!    CIPHER_SPEC (MQ's AMQ9631E/AMQ9639E; IBM's Java client reports MQRC_JSSE_ERROR, 2397,
//!    Ferrite's client MQRC_SSL_INITIALIZATION_ERROR, 2393); SSLCAUTH(REQUIRED) without a
//!    client certificate with SSL_CLIENT_CERTIFICATE (AMQ9637E; Java: 2059, Rust: 2399) and an
//!    SSLPEER the certificate's subject does not match with PEER_NAME (AMQ9636E; Java: 2397,
//!    Rust: MQRC_SSL_PEER_NAME_MISMATCH, 2398).

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use ferrite_constants::reason::*;
use ferrite_protocol::control::status_code;
use ferrite_protocol::tls::TlsStream;
use ferrite_protocol::transport::Stream;
use ferrite_queue_manager::objects::CIPHER_SPECS;
use ferrite_queue_manager::ChannelDefinition;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::{CipherSuite, ProtocolVersion, SupportedCipherSuite};

/// The key repository's default directory, relative to the queue manager's directory.
pub const KEY_REPOSITORY_DEFAULT: &str = "tls";
/// The queue manager's certificate chain.
pub const CERTIFICATE_FILE: &str = "qm.crt";
/// The queue manager's private key.
pub const KEY_FILE: &str = "qm.key";
/// CA certificates that client certificates must chain to.
pub const CA_FILE: &str = "ca.crt";
/// STATUS_DATA code PEER_NAME (Wireshark's MQ_STATUS_ERR_PEER_NAME): IBM's Java client
/// reports MQRC_JSSE_ERROR (2397); Ferrite's client the reason in Value.
pub const STATUS_PEER_NAME: i32 = 0x19;
/// STATUS_DATA code SSL_CLIENT_CERTIFICATE (MQ_STATUS_ERR_SSL_CLIENT_CERTIFICATE): IBM's Java
/// client reports MQRC_Q_MGR_NOT_AVAILABLE (2059).
pub const STATUS_SSL_CLIENT_CERTIFICATE: i32 = 0x1A;
/// The first byte of a TLS handshake record.
const TLS_HANDSHAKE_RECORD: u8 = 0x16;
/// Validity of a certificate made by `ferrite tls create-cert`, days.
pub const SELF_SIGNED_VALIDITY_DAYS: i64 = 825;

/// The rustls provider: ring only, every cipher suite it has (each is one of MQ's
/// CipherSpecs, see [`mq_cipher_spec`]).
fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

pub use ferrite_protocol::tls::{cipher_spec_matches, mq_cipher_spec};

/// What a socket's TLS session settled (for the channel checks and DISPLAY).
#[derive(Clone, Debug, Default)]
pub struct SocketSecurity {
    /// Whether the socket runs TLS.
    pub tls: bool,
    /// The negotiated cipher suite and protocol version.
    pub suite: Option<(CipherSuite, ProtocolVersion)>,
    /// The client certificate's subject DN (MQ's form, `CN=app,O=Ferrite`), when it sent one.
    pub peer_subject: Option<String>,
}

impl SocketSecurity {
    /// MQ's name of the negotiated CipherSpec (or the suite's own name).
    pub fn cipher_spec_name(&self) -> String {
        match self.suite {
            Some((suite, _)) => mq_cipher_spec(suite)
                .map(str::to_string)
                .unwrap_or_else(|| format!("{suite:?}")),
            None => "none".to_string(),
        }
    }
}

/// Where a queue manager's key repository is.
pub fn key_repository(queue_manager_directory: &Path, setting: &str) -> PathBuf {
    let setting = if setting.is_empty() {
        KEY_REPOSITORY_DEFAULT
    } else {
        setting
    };
    queue_manager_directory.join(setting)
}

fn read_certificates(path: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
    let certificates = CertificateDer::pem_file_iter(path)
        .map_err(|error| format!("cannot read {}: {error}", path.display()))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|error| format!("{} is not PEM certificates: {error}", path.display()))?;
    if certificates.is_empty() {
        return Err(format!("{} holds no certificate", path.display()));
    }
    Ok(certificates)
}

/// The TLS server configuration from the key repository `repository`.
pub fn server_config(repository: &Path) -> Result<Arc<rustls::ServerConfig>, String> {
    let certificate_path = repository.join(CERTIFICATE_FILE);
    let key_path = repository.join(KEY_FILE);
    if !certificate_path.exists() {
        return Err(format!(
            "no queue manager certificate {} (make one with `ferrite tls create-cert QM`, or copy a PEM certificate and key there)",
            certificate_path.display()
        ));
    }
    let chain = read_certificates(&certificate_path)?;
    let key = PrivateKeyDer::from_pem_file(&key_path).map_err(|error| {
        format!(
            "cannot read the private key {}: {error}",
            key_path.display()
        )
    })?;
    let provider = provider();
    let ca_path = repository.join(CA_FILE);
    let verifier = if ca_path.exists() {
        let mut roots = rustls::RootCertStore::empty();
        for certificate in read_certificates(&ca_path)? {
            roots.add(certificate).map_err(|error| {
                format!(
                    "a certificate in {} is not usable: {error}",
                    ca_path.display()
                )
            })?;
        }
        rustls::server::WebPkiClientVerifier::builder_with_provider(
            Arc::new(roots),
            provider.clone(),
        )
        .allow_unauthenticated()
        .build()
        .map_err(|error| format!("client certificate verifier: {error}"))?
    } else {
        rustls::server::WebPkiClientVerifier::no_client_auth()
    };
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS12, &rustls::version::TLS13])
        .map_err(|error| format!("TLS versions: {error}"))?
        .with_client_cert_verifier(verifier)
        .with_single_cert(chain, key)
        .map_err(|error| {
            format!(
                "the certificate {} and key {} do not make a usable pair: {error}",
                certificate_path.display(),
                key_path.display()
            )
        })?;
    // No TLS 1.3 session tickets: channels do not resume sessions, and a session then sends
    // nothing its partner did not ask for (a sending MCA reads only flows between batches).
    config.send_tls13_tickets = 0;
    Ok(Arc::new(config))
}

/// Why a socket could not become a channel.
#[derive(Debug)]
pub struct Refusal {
    /// STATUS_DATA code sent to the client (0: none, the socket is closed).
    pub status: i32,
    /// Reason code carried in the STATUS_DATA.
    pub reason: i32,
    /// The log line (MQ's message number first).
    pub message: String,
}

/// Accepts a socket: TLS when its first byte is a TLS handshake record, plaintext otherwise.
/// The handshake is bounded by `handshake_timeout`.
pub fn accept(
    stream: TcpStream,
    queue_manager_directory: &Path,
    key_repository_setting: &str,
    handshake_timeout: Duration,
) -> Result<(Stream, SocketSecurity), String> {
    let mut first = [0u8; 1];
    stream
        .set_read_timeout(Some(handshake_timeout))
        .map_err(|error| format!("socket: {error}"))?;
    match stream.peek(&mut first) {
        Ok(0) => return Err("closed before its first byte".to_string()),
        Ok(_) => {}
        Err(error) => return Err(format!("nothing received: {error}")),
    }
    if !starts_tls(first[0]) {
        return Ok((Stream::Tcp(stream), SocketSecurity::default()));
    }
    let connection = server_connection(queue_manager_directory, key_repository_setting)?;
    let _ = stream.set_write_timeout(Some(handshake_timeout));
    let tls = TlsStream::handshake(rustls::Connection::Server(connection), stream)
        .map_err(|error| format!("TLS handshake failed: {error}"))?;
    let security = stream_security(&tls);
    Ok((Stream::Tls(tls), security))
}

/// What the handshake of a [`TlsStream`] settled (either side): the suite, the version, the
/// partner's certificate subject.
pub fn stream_security(tls: &TlsStream) -> SocketSecurity {
    let suite = tls
        .cipher_suite()
        .map(|suite: SupportedCipherSuite| suite.suite());
    let peer_subject = tls
        .peer_certificates()
        .first()
        .map(|leaf| subject_dn(leaf).unwrap_or_else(|| "(undecodable subject)".to_string()));
    SocketSecurity {
        tls: true,
        suite: suite.zip(tls.protocol_version()),
        peer_subject,
    }
}

/// The TLS client side of a message channel this queue manager starts (SDR, SVR with a
/// CONNAME, RQSTR) with SSLCIPH `cipher_spec`: it trusts the certificates of the key
/// repository's `ca.crt` (the partners' CAs, or their self-signed certificates) and presents
/// the queue manager's own `qm.crt` and `qm.key` (the partner's SSLCAUTH and SSLPEER see
/// them), as MQ's MCA presents the queue manager's certificate.
pub fn message_channel_client(
    repository: &Path,
    cipher_spec: &str,
) -> Result<ferrite_protocol::tls::ClientTls, String> {
    let read = |name: &str| {
        let path = repository.join(name);
        std::fs::read(&path).map_err(|error| format!("cannot read {}: {error}", path.display()))
    };
    let trusted = read(CA_FILE).map_err(|error| {
        format!("{error} (the key repository's {CA_FILE} holds the certificates that partners' certificates must chain to)")
    })?;
    let identity = match (read(CERTIFICATE_FILE), read(KEY_FILE)) {
        (Ok(certificate), Ok(key)) => Some((certificate, key)),
        _ => None,
    };
    ferrite_protocol::tls::ClientTls::from_pem(
        &trusted,
        cipher_spec,
        identity
            .as_ref()
            .map(|(certificate, key)| (certificate.as_slice(), key.as_slice())),
    )
}

/// The partner's certificate against this end's SSLPEER (the sending end checks the
/// receiving end's certificate, as MQ checks SSLPEER at both ends of a message channel).
pub fn check_partner(channel: &ChannelDefinition, security: &SocketSecurity) -> Result<(), String> {
    if channel.ssl_peer.is_empty() {
        return Ok(());
    }
    match &security.peer_subject {
        Some(subject) if peer_matches(&channel.ssl_peer, subject) => Ok(()),
        Some(subject) => Err(format!(
            "AMQ9636E channel {}: the partner's certificate name '{subject}' does not match SSLPEER({})",
            channel.name, channel.ssl_peer
        )),
        None => Err(format!(
            "AMQ9636E channel {}: SSLPEER({}) and the partner sent no certificate",
            channel.name, channel.ssl_peer
        )),
    }
}

/// Whether a socket whose first byte is `first_byte` starts with a TLS handshake (the other
/// possibility being a plaintext `TSH`).
pub fn starts_tls(first_byte: u8) -> bool {
    first_byte == TLS_HANDSHAKE_RECORD
}

/// A TLS server session with the queue manager's key repository (read now, so a renewed
/// certificate applies to the next connection). Fails, saying why, when the repository has no
/// usable certificate and key.
pub fn server_connection(
    queue_manager_directory: &Path,
    key_repository_setting: &str,
) -> Result<rustls::ServerConnection, String> {
    let repository = key_repository(queue_manager_directory, key_repository_setting);
    let config = server_config(&repository)
        .map_err(|error| format!("a TLS client, but TLS is not available: {error}"))?;
    rustls::ServerConnection::new(config).map_err(|error| format!("TLS session: {error}"))
}

/// What the handshake of `connection` settled (call once it is over).
pub fn session_security(connection: &rustls::ServerConnection) -> SocketSecurity {
    let suite = connection
        .negotiated_cipher_suite()
        .map(|suite: SupportedCipherSuite| suite.suite());
    let peer_subject = connection
        .peer_certificates()
        .and_then(|chain| chain.first())
        .map(|leaf| subject_dn(leaf).unwrap_or_else(|| "(undecodable subject)".to_string()));
    SocketSecurity {
        tls: true,
        suite: suite.zip(connection.protocol_version()),
        peer_subject,
    }
}

/// Checks a socket's security against the channel it named (see the module docs).
pub fn check_channel(
    channel: &ChannelDefinition,
    security: &SocketSecurity,
) -> Result<(), Refusal> {
    let name = &channel.name;
    let spec = channel.ssl_cipher_spec.as_str();
    let cipher = |message: String| Refusal {
        status: status_code::CIPHER_SPEC,
        reason: MQRC_SSL_INITIALIZATION_ERROR,
        message,
    };
    if spec.is_empty() {
        if security.tls {
            return Err(cipher(format!(
                "AMQ9639E channel {name}: the client uses TLS ({}) but the channel has no SSLCIPH; set SSLCIPH on the channel or connect without TLS",
                security.cipher_spec_name()
            )));
        }
        return Ok(());
    }
    if !security.tls {
        return Err(cipher(format!(
            "AMQ9639E channel {name}: SSLCIPH({spec}) needs TLS but the client connected without it; the client must use a CipherSpec the channel accepts"
        )));
    }
    let Some((suite, version)) = security.suite else {
        return Err(cipher(format!(
            "AMQ9631E channel {name}: no cipher suite was negotiated"
        )));
    };
    if !cipher_spec_matches(spec, suite, version) {
        return Err(cipher(format!(
            "AMQ9631E channel {name}: the CipherSpec negotiated ({}) is not the channel's SSLCIPH({spec}); use SSLCIPH's CipherSpec in the client",
            security.cipher_spec_name()
        )));
    }
    match &security.peer_subject {
        None if channel.ssl_client_auth_required => Err(Refusal {
            status: STATUS_SSL_CLIENT_CERTIFICATE,
            reason: MQRC_SSL_PEER_NAME_ERROR,
            message: format!(
                "AMQ9637E channel {name}: SSLCAUTH(REQUIRED) and the client sent no certificate; give the client a certificate signed by a CA in the key repository's {CA_FILE}, or set SSLCAUTH(OPTIONAL)"
            ),
        }),
        None if !channel.ssl_peer.is_empty() => Err(Refusal {
            status: STATUS_PEER_NAME,
            reason: MQRC_SSL_PEER_NAME_MISMATCH,
            message: format!(
                "AMQ9636E channel {name}: SSLPEER({}) needs a client certificate and the client sent none",
                channel.ssl_peer
            ),
        }),
        Some(subject) if !channel.ssl_peer.is_empty() && !peer_matches(&channel.ssl_peer, subject) => {
            Err(Refusal {
                status: STATUS_PEER_NAME,
                reason: MQRC_SSL_PEER_NAME_MISMATCH,
                message: format!(
                    "AMQ9636E channel {name}: the client certificate's name '{subject}' does not match SSLPEER({})",
                    channel.ssl_peer
                ),
            })
        }
        _ => Ok(()),
    }
}

/// Every CipherSpec SSLCIPH accepts has a suite that satisfies it (checked by a test).
pub fn supported_cipher_specs() -> &'static [&'static str] {
    CIPHER_SPECS
}

/// Makes a self-signed certificate and key for the queue manager `queue_manager` in the key
/// repository `repository` (created if needed): ECDSA P-256, subject `CN=<queue manager>,
/// O=Ferrite`, names `localhost` and `127.0.0.1`. Refuses to overwrite an existing pair.
pub fn create_self_signed(repository: &Path, queue_manager: &str) -> Result<PathBuf, String> {
    use std::os::unix::fs::OpenOptionsExt;
    let certificate_path = repository.join(CERTIFICATE_FILE);
    let key_path = repository.join(KEY_FILE);
    if certificate_path.exists() || key_path.exists() {
        return Err(format!(
            "{} or {} exists already; remove them first to make a new pair",
            certificate_path.display(),
            key_path.display()
        ));
    }
    let (certificate, key) = self_signed_pem(queue_manager, &["localhost", "127.0.0.1"])?;
    std::fs::create_dir_all(repository)
        .map_err(|error| format!("cannot create {}: {error}", repository.display()))?;
    let write = |path: &Path, text: &str, mode: u32| -> Result<(), String> {
        use std::io::Write;
        std::fs::OpenOptions::new()
            .create_new(true)
            .write(true)
            .mode(mode)
            .open(path)
            .and_then(|mut file| {
                file.write_all(text.as_bytes())?;
                file.sync_all()
            })
            .map_err(|error| format!("cannot write {}: {error}", path.display()))
    };
    write(&key_path, &key, 0o600)?;
    write(&certificate_path, &certificate, 0o644)?;
    Ok(certificate_path)
}

/// A self-signed certificate and its key, both PEM: subject `CN=<common_name>,O=Ferrite`,
/// subject alternative names `names`.
pub fn self_signed_pem(common_name: &str, names: &[&str]) -> Result<(String, String), String> {
    let mut params = rcgen::CertificateParams::new(
        names
            .iter()
            .map(|name| name.to_string())
            .collect::<Vec<_>>(),
    )
    .map_err(|error| format!("certificate names: {error}"))?;
    // Encoded least specific first, as CAs do: shown as `CN=<common_name>,O=Ferrite`.
    params.distinguished_name = rcgen::DistinguishedName::new();
    params
        .distinguished_name
        .push(rcgen::DnType::OrganizationName, "Ferrite");
    params
        .distinguished_name
        .push(rcgen::DnType::CommonName, common_name);
    let now = std::time::SystemTime::now();
    params.not_before = (now - Duration::from_secs(3600)).into();
    params.not_after =
        (now + Duration::from_secs(SELF_SIGNED_VALIDITY_DAYS as u64 * 86_400)).into();
    let key = rcgen::KeyPair::generate().map_err(|error| format!("key: {error}"))?;
    let certificate = params
        .self_signed(&key)
        .map_err(|error| format!("certificate: {error}"))?;
    Ok((certificate.pem(), key.serialize_pem()))
}

// ---- The subject DN of a certificate (for SSLPEER) ----
//
// Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version OPTIONAL, serialNumber,
// signature AlgorithmIdentifier, issuer Name, validity, subject Name, ... }, ... }
// Name ::= SEQUENCE OF RelativeDistinguishedName (SET OF SEQUENCE { type OID, value ANY })

/// One DER element: (tag, contents, rest).
fn der_element(bytes: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = bytes.split_first()?;
    let (&first, mut rest) = rest.split_first()?;
    let length = if first < 0x80 {
        usize::from(first)
    } else {
        let count = usize::from(first & 0x7F);
        if count == 0 || count > 4 || rest.len() < count {
            return None;
        }
        let mut length = 0usize;
        for &byte in &rest[..count] {
            length = (length << 8) | usize::from(byte);
        }
        rest = &rest[count..];
        length
    };
    if rest.len() < length {
        return None;
    }
    Some((tag, &rest[..length], &rest[length..]))
}

/// MQ's short name of a DN attribute type (by its OID's DER contents).
fn attribute_name(oid: &[u8]) -> Option<&'static str> {
    Some(match oid {
        [0x55, 0x04, 0x03] => "CN",
        [0x55, 0x04, 0x06] => "C",
        [0x55, 0x04, 0x07] => "L",
        [0x55, 0x04, 0x08] => "ST",
        [0x55, 0x04, 0x0A] => "O",
        [0x55, 0x04, 0x0B] => "OU",
        [0x55, 0x04, 0x05] => "SERIALNUMBER",
        [0x55, 0x04, 0x2B] => "DNQ",
        [0x55, 0x04, 0x11] => "PC",
        [0x55, 0x04, 0x09] => "STREET",
        [0x09, 0x92, 0x26, 0x89, 0x93, 0xF2, 0x2C, 0x64, 0x01, 0x19] => "DC",
        [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x01] => "E",
        _ => return None,
    })
}

/// The subject of a DER certificate as MQ shows it: `CN=app,OU=payments,O=Ferrite`, the
/// most specific attribute first (the reverse of the encoded order).
pub fn subject_dn(certificate: &[u8]) -> Option<String> {
    let (_, certificate, _) = der_element(certificate)?;
    let (_, tbs, _) = der_element(certificate)?;
    let mut rest = tbs;
    let (tag, _, after) = der_element(rest)?;
    if tag == 0xA0 {
        rest = after; // version
    }
    for _ in 0..4 {
        // serialNumber, signature, issuer, validity
        rest = der_element(rest)?.2;
    }
    let (tag, subject, _) = der_element(rest)?;
    if tag != 0x30 {
        return None;
    }
    let mut attributes = Vec::new();
    let mut sets = subject;
    while !sets.is_empty() {
        let (_, set, after) = der_element(sets)?;
        sets = after;
        let mut pairs = set;
        while !pairs.is_empty() {
            let (_, pair, after) = der_element(pairs)?;
            pairs = after;
            let (_, oid, value) = der_element(pair)?;
            let (tag, value, _) = der_element(value)?;
            let text = match tag {
                // UTF8String, PrintableString, T61String, IA5String
                12 | 19 | 20 | 22 => String::from_utf8_lossy(value).into_owned(),
                _ => continue,
            };
            if let Some(name) = attribute_name(oid) {
                attributes.push(format!("{name}={text}"));
            }
        }
    }
    attributes.reverse();
    Some(attributes.join(","))
}

/// Splits a DN or SSLPEER filter into (TYPE, value) pairs: `,` or `;` separate, spaces
/// around names and values are ignored, a value may be quoted.
fn dn_pairs(text: &str) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let mut parts = Vec::new();
    for character in text.chars() {
        match character {
            '"' => quoted = !quoted,
            ',' | ';' if !quoted => parts.push(std::mem::take(&mut current)),
            other => current.push(other),
        }
    }
    parts.push(current);
    for part in parts {
        if let Some((name, value)) = part.split_once('=') {
            let name = match name.trim().to_ascii_uppercase().as_str() {
                "EMAIL" | "MAIL" => "E".to_string(),
                "SERIALNUMBER" => "SERIALNUMBER".to_string(),
                other => other.to_string(),
            };
            pairs.push((name, value.trim().to_string()));
        }
    }
    pairs
}

/// MQ's SSLPEER rule: every attribute the filter names must be in the subject with a matching
/// value (case-insensitive; `*` at the start or end of a filter value matches any text).
pub fn peer_matches(filter: &str, subject: &str) -> bool {
    let subject = dn_pairs(subject);
    dn_pairs(filter).iter().all(|(name, pattern)| {
        subject
            .iter()
            .any(|(have, value)| have == name && value_matches(pattern, value))
    })
}

fn value_matches(pattern: &str, value: &str) -> bool {
    let pattern = pattern.to_ascii_uppercase();
    let value = value.to_ascii_uppercase();
    if pattern == "*" {
        return true;
    }
    match (pattern.strip_prefix('*'), pattern.strip_suffix('*')) {
        (Some(suffix), _) if !suffix.ends_with('*') => value.ends_with(suffix),
        (_, Some(prefix)) => value.starts_with(prefix),
        _ => pattern == value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cipher_spec_is_served() {
        let provider = rustls::crypto::ring::default_provider();
        for spec in CIPHER_SPECS {
            let served = provider.cipher_suites.iter().any(|suite| {
                let version = suite.version().version;
                cipher_spec_matches(spec, suite.suite(), version)
            });
            assert!(served, "{spec} has a cipher suite");
        }
        for suite in &provider.cipher_suites {
            assert!(
                mq_cipher_spec(suite.suite()).is_some(),
                "{suite:?} has an MQ name"
            );
        }
    }

    #[test]
    fn subject_of_a_generated_certificate() {
        let (pem, _) = self_signed_pem("app", &["localhost"]).unwrap();
        let der = CertificateDer::from_pem_slice(pem.as_bytes()).unwrap();
        assert_eq!(subject_dn(der.as_ref()).unwrap(), "CN=app,O=Ferrite");
        assert!(subject_dn(&der.as_ref()[..40]).is_none());
        assert!(subject_dn(&[]).is_none());
    }

    #[test]
    fn sslpeer_matching() {
        let subject = "CN=app,OU=payments,O=Ferrite,C=GB";
        assert!(peer_matches("CN=app", subject));
        assert!(peer_matches("cn=APP, o=ferrite", subject));
        assert!(peer_matches("CN=ap*", subject));
        assert!(peer_matches("CN=*pp,OU=pay*", subject));
        assert!(peer_matches("OU=*", subject));
        assert!(!peer_matches("CN=other", subject));
        assert!(!peer_matches("CN=app,O=IBM", subject));
        assert!(!peer_matches("L=London", subject));
        assert!(peer_matches("O=\"Ferrite\"", subject));
    }

    #[test]
    fn channel_checks() {
        let mut channel = ChannelDefinition::server_connection("TLS.SVRCONN");
        let plain = SocketSecurity::default();
        let tls13 = SocketSecurity {
            tls: true,
            suite: Some((
                CipherSuite::TLS13_AES_128_GCM_SHA256,
                ProtocolVersion::TLSv1_3,
            )),
            peer_subject: None,
        };
        assert!(check_channel(&channel, &plain).is_ok());
        let refused = check_channel(&channel, &tls13).unwrap_err();
        assert_eq!(refused.status, status_code::CIPHER_SPEC);
        channel.ssl_cipher_spec = "TLS_AES_128_GCM_SHA256".into();
        channel.ssl_client_auth_required = false;
        assert!(check_channel(&channel, &tls13).is_ok());
        assert!(check_channel(&channel, &plain).is_err());
        channel.ssl_cipher_spec = "ECDHE_RSA_AES_128_GCM_SHA256".into();
        assert!(check_channel(&channel, &tls13)
            .unwrap_err()
            .message
            .contains("AMQ9631E"));
        channel.ssl_cipher_spec = "ANY_TLS12_OR_HIGHER".into();
        assert!(check_channel(&channel, &tls13).is_ok());
        channel.ssl_cipher_spec = "ANY_TLS12".into();
        assert!(check_channel(&channel, &tls13).is_err());
        channel.ssl_cipher_spec = "ANY_TLS13".into();
        channel.ssl_client_auth_required = true;
        assert_eq!(
            check_channel(&channel, &tls13).unwrap_err().reason,
            MQRC_SSL_PEER_NAME_ERROR
        );
        let with_certificate = SocketSecurity {
            peer_subject: Some("CN=app,O=Ferrite".into()),
            ..tls13
        };
        assert!(check_channel(&channel, &with_certificate).is_ok());
        channel.ssl_peer = "CN=other".into();
        assert_eq!(
            check_channel(&channel, &with_certificate)
                .unwrap_err()
                .reason,
            MQRC_SSL_PEER_NAME_MISMATCH
        );
        channel.ssl_peer = "CN=app".into();
        assert!(check_channel(&channel, &with_certificate).is_ok());
    }
}
