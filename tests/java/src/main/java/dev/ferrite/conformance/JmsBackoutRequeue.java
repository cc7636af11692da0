package dev.ferrite.conformance;

import static dev.ferrite.conformance.Checks.equal;
import static dev.ferrite.conformance.Checks.require;

import com.ibm.mq.jms.MQConnectionFactory;
import com.ibm.msg.client.wmq.WMQConstants;
import javax.jms.Connection;
import javax.jms.DeliveryMode;
import javax.jms.Message;
import javax.jms.MessageConsumer;
import javax.jms.MessageProducer;
import javax.jms.Queue;
import javax.jms.Session;
import javax.jms.TextMessage;

/**
 * Poison-message handling by IBM MQ classes for JMS against a Ferrite queue manager: the client
 * inquires the queue's BOTHRESH and BOQNAME (and the queue manager's DEADQ) and, once a message's
 * backout count reaches the threshold, requeues it itself: to BOQNAME, or with BOQNAME blank to
 * the dead-letter queue behind an MQDLH.
 *
 * <p>Arguments: queue manager, host, port, channel, the queue with BOTHRESH(2) and BOQNAME, its
 * backout requeue queue, the queue with BOTHRESH(1) and no BOQNAME. The dead-letter contents are
 * checked by the Rust test afterwards.
 */
public final class JmsBackoutRequeue {
    private static final long RECEIVE_TIMEOUT_MS = 5_000;
    private final MQConnectionFactory factory = new MQConnectionFactory();
    private final String queueName;
    private final String requeueName;
    private final String noRequeueName;

    private JmsBackoutRequeue(String[] args) throws Exception {
        factory.setQueueManager(args[0]);
        factory.setHostName(args[1]);
        factory.setPort(Integer.parseInt(args[2]));
        factory.setChannel(args[3]);
        factory.setTransportType(WMQConstants.WMQ_CM_CLIENT);
        queueName = args[4];
        requeueName = args[5];
        noRequeueName = args[6];
    }

    public static void main(String[] args) throws Exception {
        System.exit(new JmsBackoutRequeue(args).run());
    }

    private int run() {
        Checks checks = new Checks();
        checks.check("rolled back BOTHRESH times: requeued to BOQNAME", this::requeuedToBackoutQueue);
        checks.check("blank BOQNAME: requeued to the dead-letter queue", this::requeuedToDeadLetterQueue);
        return checks.finish();
    }

    /** Sends `text` persistently to `name`. */
    private void send(Session session, String name, String text) throws Exception {
        MessageProducer producer = session.createProducer(session.createQueue(name));
        producer.setDeliveryMode(DeliveryMode.PERSISTENT);
        producer.send(session.createTextMessage(text));
        producer.close();
    }

    /** Receives in a transacted session and rolls back, `times` times; returns the last count. */
    private int rollBack(Session transacted, MessageConsumer consumer, String text, int times) throws Exception {
        int deliveryCount = 0;
        for (int attempt = 1; attempt <= times; attempt++) {
            Message received = consumer.receive(RECEIVE_TIMEOUT_MS);
            require(received instanceof TextMessage, "delivery " + attempt + " arrives: " + received);
            equal(text, ((TextMessage) received).getText(), "text of delivery " + attempt);
            deliveryCount = received.getIntProperty("JMSXDeliveryCount");
            equal(attempt, deliveryCount, "JMSXDeliveryCount (BackoutCount + 1)");
            transacted.rollback();
        }
        return deliveryCount;
    }

    private void requeuedToBackoutQueue() throws Exception {
        Connection connection = factory.createConnection();
        try {
            connection.start();
            Session plain = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            send(plain, queueName, "poison");
            Session transacted = connection.createSession(true, Session.SESSION_TRANSACTED);
            Queue queue = transacted.createQueue(queueName);
            MessageConsumer consumer = transacted.createConsumer(queue);
            rollBack(transacted, consumer, "poison", 2);
            // BackoutCount is now 2 = BOTHRESH: the client moves it instead of delivering it.
            require(consumer.receive(1_000) == null, "the poison message is not delivered again");
            transacted.commit();
            consumer.close();
            MessageConsumer requeued = plain.createConsumer(plain.createQueue(requeueName));
            Message moved = requeued.receive(RECEIVE_TIMEOUT_MS);
            require(moved instanceof TextMessage, "the message is on BOQNAME: " + moved);
            equal("poison", ((TextMessage) moved).getText(), "text on BOQNAME");
            require(requeued.receiveNoWait() == null, "one message on BOQNAME");
            MessageConsumer original = plain.createConsumer(plain.createQueue(queueName));
            require(original.receiveNoWait() == null, "the queue is empty");
        } finally {
            connection.close();
        }
    }

    private void requeuedToDeadLetterQueue() throws Exception {
        Connection connection = factory.createConnection();
        try {
            connection.start();
            Session plain = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            send(plain, noRequeueName, "poison without BOQNAME");
            Session transacted = connection.createSession(true, Session.SESSION_TRANSACTED);
            MessageConsumer consumer = transacted.createConsumer(transacted.createQueue(noRequeueName));
            rollBack(transacted, consumer, "poison without BOQNAME", 1);
            require(consumer.receive(1_000) == null, "the poison message is not delivered again");
            transacted.commit();
            consumer.close();
            MessageConsumer original = plain.createConsumer(plain.createQueue(noRequeueName));
            require(original.receiveNoWait() == null, "the queue is empty");
        } finally {
            connection.close();
        }
    }
}
