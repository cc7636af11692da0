package dev.ferrite.conformance;

import static dev.ferrite.conformance.Checks.equal;
import static dev.ferrite.conformance.Checks.require;

import com.ibm.mq.MQException;
import com.ibm.mq.MQGetMessageOptions;
import com.ibm.mq.MQMessage;
import com.ibm.mq.MQPutMessageOptions;
import com.ibm.mq.MQQueue;
import com.ibm.mq.MQQueueManager;
import com.ibm.mq.constants.CMQC;
import com.ibm.mq.jms.MQConnectionFactory;
import com.ibm.msg.client.wmq.WMQConstants;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Hashtable;
import javax.jms.Connection;
import javax.jms.MessageConsumer;
import javax.jms.Session;
import javax.jms.TextMessage;

/**
 * Data conversion (MQGMO_CONVERT) done by Ferrite for IBM's clients: a string message put in
 * UTF-8 (CCSID 1208) got by the MQ classes for Java asking for EBCDIC CCSID 37 (the bytes
 * returned are EBCDIC and the MQMD says 37), and by JMS with its receive CCSID set to 37 and
 * conversion by the queue manager (the text survives the round trip).
 *
 * <p>Arguments: queue manager name, host, port, channel, queue. Each check leaves the queue empty.
 */
public final class DataConversionConformance {
    /** Characters IBM-037 can represent (it has no euro sign). */
    private static final String TEXT = "Hello, Ferrite [1208 -> 37] café ÄÖÜ ^ ¬ {}";
    private final String[] args;
    private final String queueName;
    private final Hashtable<String, Object> properties = new Hashtable<>();

    private DataConversionConformance(String[] args) {
        this.args = args;
        queueName = args[4];
        properties.put(CMQC.HOST_NAME_PROPERTY, args[1]);
        properties.put(CMQC.PORT_PROPERTY, Integer.parseInt(args[2]));
        properties.put(CMQC.CHANNEL_PROPERTY, args[3]);
        properties.put(CMQC.TRANSPORT_PROPERTY, CMQC.TRANSPORT_MQSERIES_CLIENT);
    }

    public static void main(String[] args) throws Exception {
        System.exit(new DataConversionConformance(args).run());
    }

    private int run() {
        Checks checks = new Checks();
        checks.check("MQ classes for Java: a UTF-8 message got as CCSID 37", this::mqClassesEbcdic);
        checks.check("MQ classes for Java: a binary message is got unconverted with MQRC_FORMAT_ERROR",
                this::mqClassesFormatError);
        checks.check("JMS: receive CCSID 37 converted by the queue manager", this::jmsReceiveCcsid);
        return checks.finish();
    }

    private void putUtf8(MQQueue queue, String format, byte[] data) throws Exception {
        MQMessage message = new MQMessage();
        message.format = format;
        message.characterSet = 1208;
        message.write(data);
        MQPutMessageOptions pmo = new MQPutMessageOptions();
        pmo.options = CMQC.MQPMO_NO_SYNCPOINT;
        queue.put(message, pmo);
    }

    private void mqClassesEbcdic() throws Exception {
        MQQueueManager queueManager = new MQQueueManager(args[0], properties);
        try {
            MQQueue queue = queueManager.accessQueue(queueName,
                    CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED);
            putUtf8(queue, CMQC.MQFMT_STRING, TEXT.getBytes(StandardCharsets.UTF_8));
            MQMessage got = new MQMessage();
            got.characterSet = 37;
            got.encoding = CMQC.MQENC_NATIVE;
            MQGetMessageOptions gmo = new MQGetMessageOptions();
            gmo.options = CMQC.MQGMO_NO_SYNCPOINT | CMQC.MQGMO_CONVERT;
            queue.get(got, gmo);
            equal(37, got.characterSet, "MQMD CodedCharSetId");
            byte[] data = new byte[got.getDataLength()];
            got.readFully(data);
            byte[] expected = TEXT.getBytes("IBM037");
            require(Arrays.equals(expected, data),
                    "EBCDIC bytes: expected " + Arrays.toString(expected) + " got " + Arrays.toString(data));
            queue.close();
        } finally {
            queueManager.disconnect();
        }
    }

    private void mqClassesFormatError() throws Exception {
        MQQueueManager queueManager = new MQQueueManager(args[0], properties);
        try {
            MQQueue queue = queueManager.accessQueue(queueName,
                    CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED);
            byte[] binary = {1, 2, 3, (byte) 0xFF};
            putUtf8(queue, CMQC.MQFMT_NONE, binary);
            MQMessage got = new MQMessage();
            got.characterSet = 37;
            MQGetMessageOptions gmo = new MQGetMessageOptions();
            gmo.options = CMQC.MQGMO_NO_SYNCPOINT | CMQC.MQGMO_CONVERT;
            try {
                queue.get(got, gmo);
                throw new AssertionError("MQRC_FORMAT_ERROR expected");
            } catch (MQException warning) {
                equal(CMQC.MQCC_WARNING, warning.completionCode, "completion code");
                equal(CMQC.MQRC_FORMAT_ERROR, warning.reasonCode, "reason");
            }
            equal(1208, got.characterSet, "the MQMD describes the message as it is");
            byte[] data = new byte[got.getDataLength()];
            got.readFully(data);
            require(Arrays.equals(binary, data), "returned unconverted");
            queue.close();
        } finally {
            queueManager.disconnect();
        }
    }

    private void jmsReceiveCcsid() throws Exception {
        MQConnectionFactory factory = new MQConnectionFactory();
        factory.setQueueManager(args[0]);
        factory.setHostName(args[1]);
        factory.setPort(Integer.parseInt(args[2]));
        factory.setChannel(args[3]);
        factory.setTransportType(WMQConstants.WMQ_CM_CLIENT);
        Connection connection = factory.createConnection();
        try {
            connection.start();
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            com.ibm.mq.jms.MQQueue queue = (com.ibm.mq.jms.MQQueue) session.createQueue(queueName);
            session.createProducer(queue).send(session.createTextMessage(TEXT));
            com.ibm.mq.jms.MQQueue receiving = (com.ibm.mq.jms.MQQueue) session.createQueue(queueName);
            receiving.setIntProperty(WMQConstants.WMQ_RECEIVE_CONVERSION,
                    WMQConstants.WMQ_RECEIVE_CONVERSION_QMGR);
            receiving.setIntProperty(WMQConstants.WMQ_RECEIVE_CCSID, 37);
            MessageConsumer consumer = session.createConsumer(receiving);
            TextMessage got = (TextMessage) consumer.receive(5_000);
            require(got != null, "received");
            equal(TEXT, got.getText(), "text after conversion to 37 and decoding");
            System.out.println("JMS_IBM_Character_Set " + got.getObjectProperty("JMS_IBM_Character_Set"));
        } finally {
            connection.close();
        }
    }
}
