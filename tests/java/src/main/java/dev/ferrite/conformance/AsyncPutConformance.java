package dev.ferrite.conformance;

import static dev.ferrite.conformance.Checks.equal;
import static dev.ferrite.conformance.Checks.require;

import com.ibm.mq.MQAsyncStatus;
import com.ibm.mq.MQException;
import com.ibm.mq.MQGetMessageOptions;
import com.ibm.mq.MQMessage;
import com.ibm.mq.MQPutMessageOptions;
import com.ibm.mq.MQQueue;
import com.ibm.mq.MQQueueManager;
import com.ibm.mq.constants.CMQC;
import com.ibm.mq.jms.MQConnectionFactory;
import com.ibm.msg.client.wmq.WMQConstants;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Hashtable;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.jms.Connection;
import javax.jms.DeliveryMode;
import javax.jms.JMSException;
import javax.jms.MessageConsumer;
import javax.jms.MessageProducer;
import javax.jms.Session;
import javax.jms.TextMessage;

/**
 * Asynchronous put through IBM's clients, unmodified: MQ classes for Java with
 * MQPMO_ASYNC_RESPONSE and MQQueueManager.getAsyncStatus() (MQSTAT), and JMS non-persistent sends,
 * which IBM's JMS client puts asynchronously when the destination allows it (putAsyncAllowed, or
 * the queue's DEFPRESP(ASYNC) learnt from the SPI OPEN reply). Failures of asynchronous sends
 * reach the JMS exception listener (JMSWMQ0028) every SEND_CHECK_COUNT sends, not send().
 *
 * <p>Arguments: queue manager name, host, port, channel, queue (DEFPRESP(SYNC)), and optionally
 * a queue defined DEFPRESP(ASYNC). Each check leaves the queues empty and put-enabled.
 */
public final class AsyncPutConformance {
    private static final long RECEIVE_TIMEOUT_MS = 5_000;
    private final String[] args;
    private final String queueName;
    private final String asyncQueueName;
    private final Hashtable<String, Object> properties = new Hashtable<>();

    private AsyncPutConformance(String[] args) {
        this.args = args;
        queueName = args[4];
        asyncQueueName = args.length > 5 ? args[5] : null;
        properties.put(CMQC.HOST_NAME_PROPERTY, args[1]);
        properties.put(CMQC.PORT_PROPERTY, Integer.parseInt(args[2]));
        properties.put(CMQC.CHANNEL_PROPERTY, args[3]);
        properties.put(CMQC.TRANSPORT_PROPERTY, CMQC.TRANSPORT_MQSERIES_CLIENT);
    }

    public static void main(String[] args) throws Exception {
        System.exit(new AsyncPutConformance(args).run());
    }

    private int run() {
        Checks checks = new Checks();
        checks.check("MQ classes for Java: asynchronous puts and MQSTAT", this::mqClassesAsyncPut);
        checks.check("JMS: asynchronous non-persistent sends arrive in order",
                () -> jmsSendsArrive(queueName, true));
        checks.check("JMS: a failed asynchronous send reaches the exception listener",
                () -> jmsFailureReachesListener(queueName, true));
        checks.check("JMS: a synchronous send to a put-inhibited queue throws",
                this::jmsSynchronousFailureThrows);
        if (asyncQueueName != null) {
            checks.check("JMS: DEFPRESP(ASYNC) makes non-persistent sends asynchronous",
                    () -> jmsFailureReachesListener(asyncQueueName, false));
            checks.check("JMS: DEFPRESP(ASYNC) sends arrive in order",
                    () -> jmsSendsArrive(asyncQueueName, false));
        }
        return checks.finish();
    }

    private MQQueueManager connect() throws MQException {
        return new MQQueueManager(args[0], properties);
    }

    private static void setPutInhibited(MQQueueManager queueManager, String name, boolean inhibited)
            throws MQException {
        MQQueue queue = queueManager.accessQueue(name, CMQC.MQOO_SET);
        queue.setInhibitPut(inhibited ? CMQC.MQQA_PUT_INHIBITED : CMQC.MQQA_PUT_ALLOWED);
        queue.close();
    }

    private void mqClassesAsyncPut() throws Exception {
        MQQueueManager queueManager = connect();
        try {
            MQQueue queue = queueManager.accessQueue(queueName,
                    CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_SET);
            queueManager.getAsyncStatus(); // start from zero
            MQPutMessageOptions pmo = new MQPutMessageOptions();
            pmo.options = CMQC.MQPMO_ASYNC_RESPONSE | CMQC.MQPMO_NO_SYNCPOINT;
            List<byte[]> ids = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                MQMessage message = new MQMessage();
                message.writeString("async " + i);
                queue.put(message, pmo);
                ids.add(message.messageId.clone());
            }
            for (int i = 0; i < ids.size(); i++) {
                for (int j = i + 1; j < ids.size(); j++) {
                    require(!Arrays.equals(ids.get(i), ids.get(j)), "distinct MsgIds " + i + ", " + j);
                }
            }
            MQAsyncStatus status = queueManager.getAsyncStatus();
            equal(5, status.putSuccessCount, "PutSuccessCount");
            equal(0, status.putFailureCount, "PutFailureCount");
            equal(CMQC.MQCC_OK, status.completionCode, "CompCode");
            equal(0, queueManager.getAsyncStatus().putSuccessCount, "MQSTAT resets the counts");
            MQGetMessageOptions gmo = new MQGetMessageOptions();
            gmo.options = CMQC.MQGMO_NO_SYNCPOINT;
            for (int i = 0; i < ids.size(); i++) {
                MQMessage got = new MQMessage();
                queue.get(got, gmo);
                equal("async " + i, got.readStringOfByteLength(got.getDataLength()), "data");
                require(Arrays.equals(ids.get(i), got.messageId), "the client's MsgId was kept");
            }

            queue.setInhibitPut(CMQC.MQQA_PUT_INHIBITED);
            for (int i = 0; i < 2; i++) {
                MQMessage message = new MQMessage();
                message.writeString("refused");
                queue.put(message, pmo); // no exception: the failure is reported by MQSTAT
            }
            status = queueManager.getAsyncStatus();
            equal(2, status.putFailureCount, "PutFailureCount");
            equal(0, status.putSuccessCount, "PutSuccessCount");
            equal(CMQC.MQCC_FAILED, status.completionCode, "CompCode");
            equal(CMQC.MQRC_PUT_INHIBITED, status.reasonCode, "Reason");
            equal(queueName, status.objectName.trim(), "ObjectName");
            queue.setInhibitPut(CMQC.MQQA_PUT_ALLOWED);
            queue.close();
        } finally {
            queueManager.disconnect();
        }
    }

    private MQConnectionFactory factory(int sendCheckCount) throws JMSException {
        MQConnectionFactory factory = new MQConnectionFactory();
        factory.setQueueManager(args[0]);
        factory.setHostName(args[1]);
        factory.setPort(Integer.parseInt(args[2]));
        factory.setChannel(args[3]);
        factory.setTransportType(WMQConstants.WMQ_CM_CLIENT);
        factory.setIntProperty(WMQConstants.ASYNC_EXCEPTIONS, WMQConstants.ASYNC_EXCEPTIONS_ALL);
        factory.setIntProperty(WMQConstants.WMQ_SEND_CHECK_COUNT, sendCheckCount);
        return factory;
    }

    private static javax.jms.Queue queue(Session session, String name, boolean forceAsync)
            throws JMSException {
        com.ibm.mq.jms.MQQueue queue = (com.ibm.mq.jms.MQQueue) session.createQueue(name);
        if (forceAsync) {
            queue.setPutAsyncAllowed(WMQConstants.WMQ_PUT_ASYNC_ALLOWED_ENABLED);
        }
        return queue;
    }

    private void jmsSendsArrive(String name, boolean forceAsync) throws Exception {
        Connection connection = factory(0).createConnection();
        try {
            connection.start();
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            javax.jms.Queue queue = queue(session, name, forceAsync);
            MessageProducer producer = session.createProducer(queue);
            producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                TextMessage message = session.createTextMessage("np " + i);
                producer.send(message);
                ids.add(message.getJMSMessageID());
            }
            MessageConsumer consumer = session.createConsumer(queue);
            for (int i = 0; i < 20; i++) {
                TextMessage got = (TextMessage) consumer.receive(RECEIVE_TIMEOUT_MS);
                require(got != null, "message " + i + " arrives");
                equal("np " + i, got.getText(), "order");
                equal(ids.get(i), got.getJMSMessageID(), "JMSMessageID as the sender saw it");
            }
            require(consumer.receiveNoWait() == null, "nothing more");
            Session transacted = connection.createSession(true, Session.SESSION_TRANSACTED);
            javax.jms.Queue again = queue(transacted, name, forceAsync);
            MessageProducer inUnit = transacted.createProducer(again);
            inUnit.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            inUnit.send(transacted.createTextMessage("rolled back"));
            transacted.rollback();
            inUnit.send(transacted.createTextMessage("committed"));
            transacted.commit();
            MessageConsumer check = transacted.createConsumer(again);
            TextMessage got = (TextMessage) check.receive(RECEIVE_TIMEOUT_MS);
            equal("committed", got == null ? null : got.getText(), "only the committed send");
            transacted.commit();
            require(check.receiveNoWait() == null, "the rolled-back send never arrives");
        } finally {
            connection.close();
        }
    }

    private void jmsFailureReachesListener(String name, boolean forceAsync) throws Exception {
        BlockingQueue<JMSException> reported = new LinkedBlockingQueue<>();
        Connection connection = factory(2).createConnection();
        MQQueueManager admin = connect();
        try {
            connection.setExceptionListener(reported::add);
            connection.start();
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(queue(session, name, forceAsync));
            producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            setPutInhibited(admin, name, true);
            try {
                for (int i = 0; i < 2; i++) {
                    producer.send(session.createTextMessage("refused " + i)); // must not throw
                }
            } finally {
                setPutInhibited(admin, name, false);
            }
            JMSException exception = reported.poll(RECEIVE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            require(exception != null, "the exception listener was told");
            require(exception.getMessage().contains("JMSWMQ0028"), "JMSWMQ0028: " + exception);
            Exception linked = exception.getLinkedException();
            require(linked instanceof MQException, "linked MQSTAT diagnostics: " + linked);
            equal(CMQC.MQRC_PUT_INHIBITED, ((MQException) linked).getReason(), "linked reason");
            require(linked.getMessage().contains("put failure count '2'"), "both failures: " + linked);
        } finally {
            connection.close();
            admin.disconnect();
        }
    }

    private void jmsSynchronousFailureThrows() throws Exception {
        Connection connection = factory(2).createConnection();
        MQQueueManager admin = connect();
        try {
            connection.start();
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(session.createQueue(queueName));
            producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            setPutInhibited(admin, queueName, true);
            try {
                producer.send(session.createTextMessage("refused"));
                throw new AssertionError("a synchronous send to a put-inhibited queue must throw");
            } catch (JMSException expected) {
                Exception linked = expected.getLinkedException();
                require(linked instanceof MQException
                        && ((MQException) linked).getReason() == CMQC.MQRC_PUT_INHIBITED,
                        "MQRC_PUT_INHIBITED: " + expected + " / " + linked);
            } finally {
                setPutInhibited(admin, queueName, false);
            }
        } finally {
            connection.close();
            admin.disconnect();
        }
    }
}
