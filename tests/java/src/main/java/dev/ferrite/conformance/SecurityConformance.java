package dev.ferrite.conformance;

import static dev.ferrite.conformance.Checks.equal;
import static dev.ferrite.conformance.Checks.require;

import com.ibm.mq.MQException;
import com.ibm.mq.MQQueueManager;
import com.ibm.mq.constants.CMQC;
import com.ibm.mq.jms.MQConnectionFactory;
import com.ibm.msg.client.wmq.WMQConstants;
import java.util.Hashtable;
import javax.jms.Connection;
import javax.jms.JMSException;
import javax.jms.Message;
import javax.jms.MessageConsumer;
import javax.jms.Queue;
import javax.jms.Session;
import javax.jms.TextMessage;

/**
 * Connection authentication and TLS through IBM's MQ classes for Java and JMS, unmodified,
 * against a Ferrite queue manager with CHCKCLNT(REQUIRED), the user app/passw0rd, and the
 * channels TLS.SVRCONN (SSLCIPH(TLS_AES_128_GCM_SHA256) SSLCAUTH(OPTIONAL)), TLS12.SVRCONN
 * (SSLCIPH(ECDHE_ECDSA_AES_128_GCM_SHA256)), MTLS.SVRCONN (SSLCAUTH(REQUIRED)
 * SSLPEER(CN=app)) and DEV.APP.SVRCONN (no TLS).
 * Arguments: queue manager, host, port, truststore (PKCS12, password "password"), queue, and
 * "none" (the checks without a client certificate) or a client keystore (PKCS12 with a
 * CN=app certificate, password "password": the SSLCAUTH(REQUIRED) and SSLPEER checks; Java
 * reads its key store once per process, hence the two runs).
 */
public final class SecurityConformance {
    private final String qmgr;
    private final String host;
    private final int port;
    private final String queueName;
    private final String keyStore;

    private SecurityConformance(String[] args) {
        qmgr = args[0];
        host = args[1];
        port = Integer.parseInt(args[2]);
        queueName = args[4];
        keyStore = args[5];
        if (!keyStore.equals("none")) {
            System.setProperty("javax.net.ssl.keyStore", keyStore);
            System.setProperty("javax.net.ssl.keyStorePassword", "password");
            System.setProperty("javax.net.ssl.keyStoreType", "PKCS12");
        }
        // Java's cipher suite names in sslCipherSuite (not IBM JRE's).
        System.setProperty("com.ibm.mq.cfg.useIBMCipherMappings", "false");
        System.setProperty("javax.net.ssl.trustStore", args[3]);
        System.setProperty("javax.net.ssl.trustStorePassword", "password");
        System.setProperty("javax.net.ssl.trustStoreType", "PKCS12");
    }

    public static void main(String[] args) throws Exception {
        System.exit(new SecurityConformance(args).run());
    }

    /** The MQ reason code carried anywhere in an exception's causes (0 if none). */
    static int reasonOf(Throwable failure) {
        for (Throwable cause = failure; cause != null; ) {
            if (cause instanceof MQException) {
                return ((MQException) cause).reasonCode;
            }
            if (cause instanceof com.ibm.mq.jmqi.JmqiException) {
                return ((com.ibm.mq.jmqi.JmqiException) cause).getReason();
            }
            Throwable next = cause instanceof JMSException && ((JMSException) cause).getLinkedException() != null
                    ? ((JMSException) cause).getLinkedException()
                    : cause.getCause();
            if (next == cause) {
                break;
            }
            cause = next;
        }
        return 0;
    }

    private MQConnectionFactory factory(String channel, String cipherSuite) throws JMSException {
        MQConnectionFactory factory = new MQConnectionFactory();
        factory.setHostName(host);
        factory.setPort(port);
        factory.setQueueManager(qmgr);
        factory.setChannel(channel);
        factory.setTransportType(WMQConstants.WMQ_CM_CLIENT);
        if (cipherSuite != null) {
            factory.setSSLCipherSuite(cipherSuite);
            factory.setSSLFipsRequired(false);
        }
        return factory;
    }

    interface Attempt {
        void run() throws Exception;
    }

    /** Runs an attempt that must fail, and returns the reason code it failed with. */
    static int refused(Attempt attempt) throws Exception {
        try {
            attempt.run();
        } catch (Exception failure) {
            int reason = reasonOf(failure);
            System.out.println("  refused with reason " + reason + ": " + failure);
            return reason;
        }
        throw new AssertionError("the connection was accepted");
    }

    /** Sends a text message and receives it; returns its JMSXUserID. */
    private String roundTrip(Connection connection) throws Exception {
        connection.start();
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue(queueName);
        session.createProducer(queue).send(session.createTextMessage("secured"));
        MessageConsumer consumer = session.createConsumer(queue);
        Message message = consumer.receive(5000);
        require(message instanceof TextMessage, "the message came back");
        equal("secured", ((TextMessage) message).getText(), "body");
        return message.getStringProperty("JMSXUserID").trim();
    }

    private Hashtable<String, Object> classesProperties(String channel, String cipherSuite) {
        Hashtable<String, Object> properties = new Hashtable<>();
        properties.put(CMQC.HOST_NAME_PROPERTY, host);
        properties.put(CMQC.PORT_PROPERTY, port);
        properties.put(CMQC.CHANNEL_PROPERTY, channel);
        properties.put(CMQC.TRANSPORT_PROPERTY, CMQC.TRANSPORT_MQSERIES_CLIENT);
        if (cipherSuite != null) {
            properties.put(CMQC.SSL_CIPHER_SUITE_PROPERTY, cipherSuite);
        }
        return properties;
    }

    private int run() {
        Checks checks = new Checks();
        String tls13 = "TLS_AES_128_GCM_SHA256";
        if (!keyStore.equals("none")) {
            checks.check("JMS with a client certificate matching SSLPEER: connected", () -> {
                Connection connection = factory("MTLS.SVRCONN", tls13).createConnection("app", "passw0rd");
                try {
                    equal("app", roundTrip(connection), "JMSXUserID");
                } finally {
                    connection.close();
                }
            });
            checks.check("JMS with a client certificate not matching SSLPEER: 2397", () -> equal(2397,
                    refused(() -> factory("PEER.SVRCONN", tls13).createConnection("app", "passw0rd").close()),
                    "reason"));
            return checks.finish();
        }
        checks.check("JMS over TLS with a valid user and password: JMSXUserID is the user", () -> {
            Connection connection = factory("TLS.SVRCONN", tls13).createConnection("app", "passw0rd");
            try {
                equal("app", roundTrip(connection), "JMSXUserID");
            } finally {
                connection.close();
            }
        });
        checks.check("JMS over TLS 1.2 (ECDHE_ECDSA_AES_128_GCM_SHA256)", () -> {
            Connection connection = factory("TLS12.SVRCONN", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256")
                    .createConnection("app", "passw0rd");
            try {
                equal("app", roundTrip(connection), "JMSXUserID");
            } finally {
                connection.close();
            }
        });
        checks.check("JMS wrong password: 2035", () -> equal(2035,
                refused(() -> factory("TLS.SVRCONN", tls13).createConnection("app", "wrong").close()),
                "reason"));
        checks.check("JMS unknown user: 2035", () -> equal(2035,
                refused(() -> factory("TLS.SVRCONN", tls13).createConnection("nobody", "passw0rd").close()),
                "reason"));
        checks.check("JMS without a user and password under CHCKCLNT(REQUIRED): 2035", () -> equal(2035,
                refused(() -> factory("TLS.SVRCONN", tls13).createConnection().close()), "reason"));
        checks.check("JMS password on a plaintext channel (protected, cannot be checked): 2035", () -> equal(2035,
                refused(() -> factory("DEV.APP.SVRCONN", null).createConnection("app", "passw0rd").close()),
                "reason"));
        checks.check("MQ classes with MQCSP over TLS: connected", () -> {
            Hashtable<String, Object> properties = classesProperties("TLS.SVRCONN", tls13);
            properties.put(CMQC.USER_ID_PROPERTY, "app");
            properties.put(CMQC.PASSWORD_PROPERTY, "passw0rd");
            properties.put(CMQC.USE_MQCSP_AUTHENTICATION_PROPERTY, Boolean.TRUE);
            new MQQueueManager(qmgr, properties).disconnect();
        });
        checks.check("MQ classes with a wrong password: 2035", () -> {
            Hashtable<String, Object> properties = classesProperties("TLS.SVRCONN", tls13);
            properties.put(CMQC.USER_ID_PROPERTY, "app");
            properties.put(CMQC.PASSWORD_PROPERTY, "wrong");
            properties.put(CMQC.USE_MQCSP_AUTHENTICATION_PROPERTY, Boolean.TRUE);
            equal(2035, refused(() -> new MQQueueManager(qmgr, properties).disconnect()), "reason");
        });
        checks.check("JMS with another CipherSpec than the channel's: 2397 MQRC_JSSE_ERROR", () -> equal(2397,
                refused(() -> factory("TLS.SVRCONN", "TLS_AES_256_GCM_SHA384")
                        .createConnection("app", "passw0rd").close()), "reason"));
        checks.check("JMS without TLS on a TLS channel: 2397", () -> equal(2397,
                refused(() -> factory("TLS.SVRCONN", null).createConnection("app", "passw0rd").close()),
                "reason"));
        checks.check("JMS with TLS on a channel without TLS: 2397", () -> equal(2397,
                refused(() -> factory("DEV.APP.SVRCONN", tls13).createConnection("app", "passw0rd").close()),
                "reason"));
        checks.check("JMS without a client certificate on SSLCAUTH(REQUIRED): 2059", () -> equal(2059,
                refused(() -> factory("MTLS.SVRCONN", tls13).createConnection("app", "passw0rd").close()),
                "reason"));
        return checks.finish();
    }
}
