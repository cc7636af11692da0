package dev.ferrite.conformance;

import static dev.ferrite.conformance.Checks.equal;
import static dev.ferrite.conformance.Checks.require;

import com.ibm.mq.MQException;
import com.ibm.mq.MQMessage;
import com.ibm.mq.MQQueue;
import com.ibm.mq.MQQueueManager;
import com.ibm.mq.constants.CMQC;
import com.ibm.mq.jms.MQConnectionFactory;
import com.ibm.msg.client.wmq.WMQConstants;
import java.util.Hashtable;
import javax.jms.Connection;
import javax.jms.JMSException;
import javax.jms.Session;

/**
 * Authority records as IBM's MQ classes for Java and JMS see them: MQRC_NOT_AUTHORIZED (2035)
 * at MQCONN for a user without connect authority, at MQOPEN for an access the user was not
 * granted, and nothing refused that was granted. Arguments: queue manager name, host, port,
 * the channel of a user granted connect and put on the granted queue (only), the channel of a
 * user granted nothing, the granted queue, a queue the user may not use.
 */
public final class AuthorizationConformance {
    public static void main(String[] args) throws Exception {
        String qmgrName = args[0];
        String host = args[1];
        int port = Integer.parseInt(args[2]);
        String appChannel = args[3];
        String nobodyChannel = args[4];
        String granted = args[5];
        String secret = args[6];
        Checks checks = new Checks();
        checks.check("MQCONN without connect authority is 2035", () -> {
            MQException refused = null;
            try {
                new MQQueueManager(qmgrName, properties(host, port, nobodyChannel)).disconnect();
            } catch (MQException raised) {
                refused = raised;
            }
            require(refused != null, "the connection was refused");
            equal(CMQC.MQCC_FAILED, refused.completionCode, "completion code");
            equal(CMQC.MQRC_NOT_AUTHORIZED, refused.reasonCode, "reason code");
        });
        checks.check("put is granted: MQOPEN for output and MQPUT complete", () -> {
            MQQueueManager qmgr = new MQQueueManager(qmgrName, properties(host, port, appChannel));
            MQQueue queue = qmgr.accessQueue(granted, CMQC.MQOO_OUTPUT);
            MQMessage message = new MQMessage();
            message.writeString("granted");
            queue.put(message);
            queue.close();
            qmgr.disconnect();
        });
        checks.check("get is not granted: MQOPEN for input is 2035", () -> {
            MQQueueManager qmgr = new MQQueueManager(qmgrName, properties(host, port, appChannel));
            equal(CMQC.MQRC_NOT_AUTHORIZED, openReason(qmgr, granted, CMQC.MQOO_INPUT_AS_Q_DEF),
                    "reason code");
            qmgr.disconnect();
        });
        checks.check("a queue with no record for the user: MQOPEN is 2035", () -> {
            MQQueueManager qmgr = new MQQueueManager(qmgrName, properties(host, port, appChannel));
            equal(CMQC.MQRC_NOT_AUTHORIZED, openReason(qmgr, secret, CMQC.MQOO_OUTPUT),
                    "reason code");
            qmgr.disconnect();
        });
        checks.check("JMS: a producer on the refused queue fails with 2035 linked", () -> {
            Connection connection = factory(qmgrName, host, port, appChannel).createConnection();
            try {
                Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                JMSException refused = null;
                try {
                    session.createProducer(session.createQueue("queue:///" + secret));
                } catch (JMSException raised) {
                    refused = raised;
                }
                require(refused != null, "createProducer was refused");
                equal(CMQC.MQRC_NOT_AUTHORIZED, linkedReason(refused), "linked reason code");
                // What was granted still works on the same connection.
                session.createProducer(session.createQueue("queue:///" + granted))
                        .send(session.createTextMessage("granted over JMS"));
            } finally {
                connection.close();
            }
        });
        checks.check("JMS: createConnection without connect authority fails with 2035 linked", () -> {
            JMSException refused = null;
            try {
                factory(qmgrName, host, port, nobodyChannel).createConnection().close();
            } catch (JMSException raised) {
                refused = raised;
            }
            require(refused != null, "createConnection was refused");
            require(refused instanceof javax.jms.JMSSecurityException,
                    "a JMSSecurityException, as for MQ: " + refused);
            equal(CMQC.MQRC_NOT_AUTHORIZED, linkedReason(refused), "linked reason code");
        });
        System.exit(checks.finish());
    }

    private static Hashtable<String, Object> properties(String host, int port, String channel) {
        Hashtable<String, Object> properties = new Hashtable<>();
        properties.put(CMQC.HOST_NAME_PROPERTY, host);
        properties.put(CMQC.PORT_PROPERTY, port);
        properties.put(CMQC.CHANNEL_PROPERTY, channel);
        properties.put(CMQC.TRANSPORT_PROPERTY, CMQC.TRANSPORT_MQSERIES_CLIENT);
        return properties;
    }

    private static MQConnectionFactory factory(String qmgrName, String host, int port,
            String channel) throws JMSException {
        MQConnectionFactory factory = new MQConnectionFactory();
        factory.setQueueManager(qmgrName);
        factory.setHostName(host);
        factory.setPort(port);
        factory.setChannel(channel);
        factory.setTransportType(WMQConstants.WMQ_CM_CLIENT);
        return factory;
    }

    private static int openReason(MQQueueManager qmgr, String queue, int options) {
        try {
            qmgr.accessQueue(queue, options).close();
        } catch (MQException raised) {
            equal(CMQC.MQCC_FAILED, raised.completionCode, "completion code");
            return raised.reasonCode;
        }
        return 0;
    }

    /** The reason code of the MQException a JMSException links, -1 if none. */
    private static int linkedReason(JMSException raised) {
        Throwable cause = raised.getLinkedException();
        while (cause != null) {
            if (cause instanceof MQException) {
                return ((MQException) cause).reasonCode;
            }
            if (cause instanceof com.ibm.mq.jmqi.JmqiException) {
                return ((com.ibm.mq.jmqi.JmqiException) cause).getReason();
            }
            cause = cause.getCause();
        }
        return -1;
    }
}
