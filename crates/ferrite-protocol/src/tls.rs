//! TLS under the client protocol: a [`TlsStream`] is a TCP socket carrying a rustls session
//! (client or server side), usable as a [`crate::transport::Stream`] by both halves of a
//! channel, the receiver reading and the conversations writing, as MQ runs TLS on a channel
//! from the first byte of the socket.
//!
//! One rustls session serves both directions, so it sits behind a mutex; a reader never holds
//! that mutex while it waits on the socket (it reads raw TLS records into its own buffer
//! first, then feeds them to the session), so a waiting read never blocks a writer. Only one
//! thread reads (the owner of the `Transport`); any number write, one flow at a time.

use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::{CipherSuite, ProtocolVersion};

/// MQ's CipherSpec name for a cipher suite of Ferrite's TLS library (both ends use it).
pub fn mq_cipher_spec(suite: CipherSuite) -> Option<&'static str> {
    Some(match suite {
        CipherSuite::TLS13_AES_128_GCM_SHA256 => "TLS_AES_128_GCM_SHA256",
        CipherSuite::TLS13_AES_256_GCM_SHA384 => "TLS_AES_256_GCM_SHA384",
        CipherSuite::TLS13_CHACHA20_POLY1305_SHA256 => "TLS_CHACHA20_POLY1305_SHA256",
        CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 => "ECDHE_ECDSA_AES_128_GCM_SHA256",
        CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384 => "ECDHE_ECDSA_AES_256_GCM_SHA384",
        CipherSuite::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256 => {
            "ECDHE_ECDSA_CHACHA20_POLY1305_SHA256"
        }
        CipherSuite::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 => "ECDHE_RSA_AES_128_GCM_SHA256",
        CipherSuite::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384 => "ECDHE_RSA_AES_256_GCM_SHA384",
        CipherSuite::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256 => {
            "ECDHE_RSA_CHACHA20_POLY1305_SHA256"
        }
        _ => return None,
    })
}

/// Whether a session with `suite` over `version` satisfies the CipherSpec `spec`, MQ's alias
/// CipherSpecs (ANY, ANY_TLS12, ANY_TLS12_OR_HIGHER, ANY_TLS13, ANY_TLS13_OR_HIGHER)
/// included.
pub fn cipher_spec_matches(spec: &str, suite: CipherSuite, version: ProtocolVersion) -> bool {
    let tls13 = version == ProtocolVersion::TLSv1_3;
    let tls12 = version == ProtocolVersion::TLSv1_2;
    match spec {
        "ANY" | "ANY_TLS12_OR_HIGHER" => tls12 || tls13,
        "ANY_TLS12" => tls12,
        "ANY_TLS13" | "ANY_TLS13_OR_HIGHER" => tls13,
        named => mq_cipher_spec(suite) == Some(named),
    }
}

/// The client side of a TLS channel: which servers it trusts, which CipherSpec it asks for
/// (the client's SSLCIPH) and its own certificate, if any.
#[derive(Clone, Debug)]
pub struct ClientTls {
    /// The rustls configuration.
    pub config: Arc<rustls::ClientConfig>,
}

impl ClientTls {
    /// Trusts the PEM certificates `trusted` (the queue manager's certificate or its CA);
    /// offers only the cipher suites of `cipher_spec`; presents `identity` (PEM certificate
    /// chain, PEM key) when given.
    pub fn from_pem(
        trusted: &[u8],
        cipher_spec: &str,
        identity: Option<(&[u8], &[u8])>,
    ) -> Result<ClientTls, String> {
        let mut provider = rustls::crypto::ring::default_provider();
        provider.cipher_suites.retain(|suite| {
            cipher_spec_matches(cipher_spec, suite.suite(), suite.version().version)
        });
        if provider.cipher_suites.is_empty() {
            return Err(format!("no cipher suite for CipherSpec {cipher_spec}"));
        }
        let mut roots = rustls::RootCertStore::empty();
        for certificate in CertificateDer::pem_slice_iter(trusted) {
            let certificate =
                certificate.map_err(|error| format!("trusted certificates: {error}"))?;
            roots
                .add(certificate)
                .map_err(|error| format!("trusted certificate: {error}"))?;
        }
        let builder = rustls::ClientConfig::builder_with_provider(Arc::new(provider))
            .with_protocol_versions(&[&rustls::version::TLS12, &rustls::version::TLS13])
            .map_err(|error| format!("TLS versions: {error}"))?
            .with_root_certificates(roots);
        let config = match identity {
            None => builder.with_no_client_auth(),
            Some((chain, key)) => {
                let chain = CertificateDer::pem_slice_iter(chain)
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|error| format!("client certificate: {error}"))?;
                let key = PrivateKeyDer::from_pem_slice(key)
                    .map_err(|error| format!("client key: {error}"))?;
                builder
                    .with_client_auth_cert(chain, key)
                    .map_err(|error| format!("client certificate and key: {error}"))?
            }
        };
        Ok(ClientTls {
            config: Arc::new(config),
        })
    }

    /// Starts TLS on `socket` to the server named `host` (a DNS name or an IP address the
    /// server's certificate names).
    pub fn connect(&self, socket: TcpStream, host: &str) -> io::Result<TlsStream> {
        let name = rustls::pki_types::ServerName::try_from(host.to_string())
            .map_err(|error| io::Error::new(io::ErrorKind::InvalidInput, error))?;
        let connection =
            rustls::ClientConnection::new(self.config.clone(), name).map_err(tls_error)?;
        TlsStream::handshake(rustls::Connection::Client(connection), socket)
    }
}

/// Bytes of TLS records read from the socket at a time. The socket is read only once the
/// session's plaintext is used up, so the plaintext one read yields (less than its records)
/// stays under rustls's 16 KiB received-plaintext limit.
pub const TLS_READ_BUFFER_BYTES: usize = 16 * 1024;

/// The shared half: the session and the socket it writes to.
#[derive(Debug)]
struct Session {
    connection: Mutex<rustls::Connection>,
    socket: TcpStream,
}

/// A TLS session over a TCP socket. Clones share the session (see the module docs).
#[derive(Debug)]
pub struct TlsStream {
    session: Arc<Session>,
    /// This handle's own socket handle (for reads, timeouts and shutdown).
    socket: TcpStream,
    buffer: Vec<u8>,
}

fn tls_error(error: rustls::Error) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, error)
}

impl TlsStream {
    /// Runs the handshake of `connection` over `socket` to its end (bounded by the socket's
    /// read and write timeouts, which the caller sets).
    pub fn handshake(
        mut connection: rustls::Connection,
        mut socket: TcpStream,
    ) -> io::Result<TlsStream> {
        while connection.is_handshaking() {
            connection.complete_io(&mut socket)?;
        }
        // Whatever the handshake left to send (a TLS 1.3 server's session tickets).
        while connection.wants_write() {
            connection.write_tls(&mut socket)?;
        }
        let reader = socket.try_clone()?;
        Ok(TlsStream {
            session: Arc::new(Session {
                connection: Mutex::new(connection),
                socket,
            }),
            socket: reader,
            buffer: Vec::new(),
        })
    }

    /// Reads with `f` under the session lock.
    pub fn with_connection<T>(&self, f: impl FnOnce(&rustls::Connection) -> T) -> T {
        f(&self.session.connection.lock().unwrap())
    }

    /// The negotiated cipher suite, as rustls names it (`TLS13_AES_128_GCM_SHA256`).
    pub fn cipher_suite(&self) -> Option<rustls::SupportedCipherSuite> {
        self.with_connection(|connection| connection.negotiated_cipher_suite())
    }

    /// The negotiated protocol version.
    pub fn protocol_version(&self) -> Option<rustls::ProtocolVersion> {
        self.with_connection(|connection| connection.protocol_version())
    }

    /// The peer's certificate chain in DER (the leaf first), when it sent one.
    pub fn peer_certificates(&self) -> Vec<Vec<u8>> {
        self.with_connection(|connection| {
            connection
                .peer_certificates()
                .map(|chain| chain.iter().map(|cert| cert.as_ref().to_vec()).collect())
                .unwrap_or_default()
        })
    }

    /// A second handle on the same session.
    pub fn try_clone(&self) -> io::Result<TlsStream> {
        Ok(TlsStream {
            session: self.session.clone(),
            socket: self.socket.try_clone()?,
            buffer: Vec::new(),
        })
    }

    /// The TCP socket (timeouts, shutdown, socket options).
    pub fn socket(&self) -> &TcpStream {
        &self.socket
    }

    /// Bounds each read.
    pub fn set_read_timeout(&self, timeout: Option<Duration>) -> io::Result<()> {
        self.socket.set_read_timeout(timeout)
    }

    /// Bounds each write.
    pub fn set_write_timeout(&self, timeout: Option<Duration>) -> io::Result<()> {
        self.socket.set_write_timeout(timeout)
    }

    /// Shuts the socket down (a TLS close_notify goes first when the write side closes).
    pub fn shutdown(&self, how: Shutdown) -> io::Result<()> {
        if matches!(how, Shutdown::Write | Shutdown::Both) {
            if let Ok(mut connection) = self.session.connection.try_lock() {
                connection.send_close_notify();
                let mut socket = &self.session.socket;
                let _ = connection.write_tls(&mut socket);
            }
        }
        self.socket.shutdown(how)
    }

    /// Sends what the session has queued (alerts, key updates) with the lock held.
    fn flush_session(connection: &mut rustls::Connection, socket: &TcpStream) -> io::Result<()> {
        let mut socket = socket;
        while connection.wants_write() {
            connection.write_tls(&mut socket)?;
        }
        Ok(())
    }
}

impl Read for TlsStream {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        loop {
            {
                let mut connection = self.session.connection.lock().unwrap();
                match connection.reader().read(out) {
                    Ok(read) => return Ok(read),
                    Err(error) if error.kind() == io::ErrorKind::WouldBlock => {}
                    Err(error) => return Err(error),
                }
            }
            // Wait for TLS records without the lock, so that writers carry on.
            if self.buffer.len() != TLS_READ_BUFFER_BYTES {
                self.buffer.resize(TLS_READ_BUFFER_BYTES, 0);
            }
            let read = self.socket.read(&mut self.buffer)?;
            let mut connection = self.session.connection.lock().unwrap();
            if read == 0 {
                // The peer closed the socket: what the session holds is all there is.
                return match connection.reader().read(out) {
                    Ok(read) => Ok(read),
                    Err(error) if error.kind() == io::ErrorKind::WouldBlock => Ok(0),
                    Err(error) if error.kind() == io::ErrorKind::UnexpectedEof => Ok(0),
                    Err(error) => Err(error),
                };
            }
            let mut records = &self.buffer[..read];
            while !records.is_empty() {
                connection.read_tls(&mut records)?;
                let state = connection.process_new_packets();
                if let Err(error) = state {
                    let _ = Self::flush_session(&mut connection, &self.session.socket);
                    return Err(tls_error(error));
                }
            }
            Self::flush_session(&mut connection, &self.session.socket)?;
        }
    }
}

impl Write for TlsStream {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let mut connection = self.session.connection.lock().unwrap();
        let written = connection.writer().write(bytes)?;
        Self::flush_session(&mut connection, &self.session.socket)?;
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        let mut connection = self.session.connection.lock().unwrap();
        Self::flush_session(&mut connection, &self.session.socket)
    }
}
