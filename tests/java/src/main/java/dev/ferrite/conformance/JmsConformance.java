package dev.ferrite.conformance;

import static dev.ferrite.conformance.Checks.equal;
import static dev.ferrite.conformance.Checks.require;

import com.ibm.mq.jms.MQConnectionFactory;
import com.ibm.msg.client.wmq.WMQConstants;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.jms.BytesMessage;
import javax.jms.Connection;
import javax.jms.DeliveryMode;
import javax.jms.MapMessage;
import javax.jms.Message;
import javax.jms.MessageConsumer;
import javax.jms.MessageProducer;
import javax.jms.Queue;
import javax.jms.Session;
import javax.jms.TemporaryQueue;
import javax.jms.TextMessage;

/**
 * IBM MQ classes for JMS against a Ferrite queue manager, unmodified, over a SVRCONN channel.
 * Arguments: queue manager name, host, port, channel, queue. Each check leaves the queue empty.
 * A sixth argument "skip=NAME|NAME" names checks not run (printed as SKIP): capabilities the
 * queue manager does not have yet.
 */
public final class JmsConformance {
    private static final long RECEIVE_TIMEOUT_MS = 5_000;
    private final MQConnectionFactory factory = new MQConnectionFactory();
    private final String queueName;
    private final java.util.List<String> skipped;

    private JmsConformance(String[] args) throws Exception {
        factory.setQueueManager(args[0]);
        factory.setHostName(args[1]);
        factory.setPort(Integer.parseInt(args[2]));
        factory.setChannel(args[3]);
        factory.setTransportType(WMQConstants.WMQ_CM_CLIENT);
        queueName = args[4];
        skipped = args.length > 5 && args[5].startsWith("skip=")
                ? Arrays.asList(args[5].substring(5).split("\\|"))
                : java.util.List.of();
    }

    public static void main(String[] args) throws Exception {
        System.exit(new JmsConformance(args).run());
    }

    interface SessionCheck {
        void run(Connection connection) throws Exception;
    }

    private Checks.Check withConnection(SessionCheck check) {
        return () -> {
            Connection connection = factory.createConnection();
            try {
                connection.start();
                Session cleaner = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                drain(cleaner, cleaner.createQueue(queueName));
                cleaner.close();
                check.run(connection);
            } finally {
                connection.close();
            }
        };
    }

    private void check(Checks checks, String name, SessionCheck check) {
        if (skipped.contains(name)) {
            System.out.println("SKIP " + name);
            return;
        }
        checks.check(name, withConnection(check));
    }

    private int run() {
        Checks checks = new Checks();
        check(checks, "send and receive text, non-persistent", c -> sendReceive(c, DeliveryMode.NON_PERSISTENT));
        check(checks, "send and receive text, persistent", c -> sendReceive(c, DeliveryMode.PERSISTENT));
        check(checks, "transacted session: rollback and commit", this::transacted);
        check(checks, "CLIENT_ACKNOWLEDGE: recover redelivers", this::clientAcknowledge);
        check(checks, "bytes and map messages", this::bytesAndMap);
        check(checks, "JMS properties round-trip", this::properties);
        check(checks, "JMSCorrelationID selection", this::correlationSelection);
        check(checks, "message selector on a property", this::propertySelector);
        check(checks, "MessageListener", this::listener);
        check(checks, "request/reply with a temporary queue", this::requestReply);
        return checks.finish();
    }

    private void drain(Session session, Queue queue) throws Exception {
        MessageConsumer consumer = session.createConsumer(queue);
        while (consumer.receiveNoWait() != null) {
            // discard
        }
        consumer.close();
    }

    private void sendReceive(Connection connection, int deliveryMode) throws Exception {
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue(queueName);
        MessageProducer producer = session.createProducer(queue);
        producer.setDeliveryMode(deliveryMode);
        TextMessage sent = session.createTextMessage("hello from IBM's JMS client " + deliveryMode);
        producer.send(sent);
        require(sent.getJMSMessageID() != null && sent.getJMSMessageID().startsWith("ID:"), "JMSMessageID set");
        MessageConsumer consumer = session.createConsumer(queue);
        Message received = consumer.receive(RECEIVE_TIMEOUT_MS);
        require(received instanceof TextMessage, "a TextMessage arrives: " + received);
        equal(sent.getText(), ((TextMessage) received).getText(), "text");
        equal(deliveryMode, received.getJMSDeliveryMode(), "JMSDeliveryMode");
        equal(sent.getJMSMessageID(), received.getJMSMessageID(), "JMSMessageID");
        require(consumer.receiveNoWait() == null, "queue empty afterwards");
        session.close();
    }

    private void transacted(Connection connection) throws Exception {
        Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
        Queue queue = session.createQueue(queueName);
        MessageProducer producer = session.createProducer(queue);
        MessageConsumer consumer = session.createConsumer(queue);
        producer.send(session.createTextMessage("rolled back"));
        session.rollback();
        require(consumer.receive(300) == null, "a rolled-back send is never seen");
        producer.send(session.createTextMessage("committed"));
        session.commit();
        TextMessage first = (TextMessage) consumer.receive(RECEIVE_TIMEOUT_MS);
        equal("committed", first.getText(), "committed send received");
        require(!first.getJMSRedelivered(), "first delivery");
        session.rollback();
        TextMessage again = (TextMessage) consumer.receive(RECEIVE_TIMEOUT_MS);
        equal("committed", again.getText(), "rolled-back receive redelivered");
        require(again.getJMSRedelivered(), "JMSRedelivered after rollback");
        session.commit();
        require(consumer.receive(300) == null, "gone after commit");
        session.close();
    }

    private void clientAcknowledge(Connection connection) throws Exception {
        Session session = connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
        Queue queue = session.createQueue(queueName);
        session.createProducer(queue).send(session.createTextMessage("ack me"));
        MessageConsumer consumer = session.createConsumer(queue);
        Message first = consumer.receive(RECEIVE_TIMEOUT_MS);
        require(first != null, "received");
        session.recover();
        Message again = consumer.receive(RECEIVE_TIMEOUT_MS);
        require(again != null && again.getJMSRedelivered(), "redelivered after recover");
        again.acknowledge();
        require(consumer.receive(300) == null, "gone after acknowledge");
        session.close();
    }

    private void bytesAndMap(Connection connection) throws Exception {
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue(queueName);
        MessageProducer producer = session.createProducer(queue);
        BytesMessage bytes = session.createBytesMessage();
        byte[] payload = new byte[3000];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) i;
        }
        bytes.writeBytes(payload);
        producer.send(bytes);
        MapMessage map = session.createMapMessage();
        map.setString("name", "ferrite");
        map.setInt("count", 42);
        map.setDouble("ratio", 2.5);
        producer.send(map);
        MessageConsumer consumer = session.createConsumer(queue);
        BytesMessage gotBytes = (BytesMessage) consumer.receive(RECEIVE_TIMEOUT_MS);
        byte[] back = new byte[(int) gotBytes.getBodyLength()];
        gotBytes.readBytes(back);
        require(Arrays.equals(payload, back), "bytes intact");
        MapMessage gotMap = (MapMessage) consumer.receive(RECEIVE_TIMEOUT_MS);
        equal("ferrite", gotMap.getString("name"), "map string");
        equal(42, gotMap.getInt("count"), "map int");
        equal(2.5, gotMap.getDouble("ratio"), "map double");
        session.close();
    }

    private void properties(Connection connection) throws Exception {
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue(queueName);
        TextMessage sent = session.createTextMessage("with properties");
        sent.setStringProperty("colour", "red & <blue>");
        sent.setIntProperty("count", 7);
        sent.setBooleanProperty("urgent", true);
        sent.setDoubleProperty("weight", 1.25);
        sent.setLongProperty("big", 1L << 40);
        sent.setJMSType("order");
        sent.setJMSCorrelationID("corr-properties");
        MessageProducer producer = session.createProducer(queue);
        producer.setPriority(7);
        producer.send(sent);
        Message got = session.createConsumer(queue).receive(RECEIVE_TIMEOUT_MS);
        equal("red & <blue>", got.getStringProperty("colour"), "string property");
        equal(7, got.getIntProperty("count"), "int property");
        equal(true, got.getBooleanProperty("urgent"), "boolean property");
        equal(1.25, got.getDoubleProperty("weight"), "double property");
        equal(1L << 40, got.getLongProperty("big"), "long property");
        equal("order", got.getJMSType(), "JMSType");
        equal("corr-properties", got.getJMSCorrelationID(), "JMSCorrelationID");
        equal(7, got.getJMSPriority(), "JMSPriority");
        session.close();
    }

    private void correlationSelection(Connection connection) throws Exception {
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue(queueName);
        MessageProducer producer = session.createProducer(queue);
        for (int i = 0; i < 20; i++) {
            TextMessage message = session.createTextMessage("message " + i);
            message.setJMSCorrelationID("corr-" + i);
            producer.send(message);
        }
        MessageConsumer picky = session.createConsumer(queue, "JMSCorrelationID = 'corr-13'");
        TextMessage got = (TextMessage) picky.receive(RECEIVE_TIMEOUT_MS);
        require(got != null, "selected message arrives");
        equal("message 13", got.getText(), "the selected message");
        picky.close();
        drain(session, queue);
        session.close();
    }

    private void propertySelector(Connection connection) throws Exception {
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue(queueName);
        MessageProducer producer = session.createProducer(queue);
        for (String colour : new String[] {"red", "green", "blue", "green"}) {
            TextMessage message = session.createTextMessage(colour);
            message.setStringProperty("colour", colour);
            producer.send(message);
        }
        MessageConsumer greens = session.createConsumer(queue, "colour = 'green'");
        equal("green", ((TextMessage) greens.receive(RECEIVE_TIMEOUT_MS)).getText(), "first green");
        equal("green", ((TextMessage) greens.receive(RECEIVE_TIMEOUT_MS)).getText(), "second green");
        require(greens.receive(300) == null, "no third green");
        greens.close();
        drain(session, queue);
        session.close();
    }

    private void listener(Connection connection) throws Exception {
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue(queueName);
        CountDownLatch arrived = new CountDownLatch(3);
        AtomicReference<String> texts = new AtomicReference<>("");
        MessageConsumer consumer = session.createConsumer(queue);
        consumer.setMessageListener(message -> {
            try {
                String text = ((TextMessage) message).getText();
                texts.updateAndGet(t -> t + text.substring(0, 1));
            } catch (Exception failure) {
                texts.set("error " + failure);
            }
            arrived.countDown();
        });
        Session producing = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageProducer producer = producing.createProducer(producing.createQueue(queueName));
        for (String text : new String[] {"a", "b", "c"}) {
            producer.send(producing.createTextMessage(text));
        }
        require(arrived.await(10, TimeUnit.SECONDS), "three messages to the listener");
        equal("abc", texts.get(), "in order");
        consumer.close();
        producing.close();
        session.close();
    }

    private void requestReply(Connection connection) throws Exception {
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue queue = session.createQueue(queueName);
        TemporaryQueue replies = session.createTemporaryQueue();
        TextMessage request = session.createTextMessage("ping");
        request.setJMSReplyTo(replies);
        session.createProducer(queue).send(request);
        // The server side: receive the request, answer on JMSReplyTo, correlated.
        Session serving = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Message received = serving.createConsumer(serving.createQueue(queueName)).receive(RECEIVE_TIMEOUT_MS);
        require(received != null && received.getJMSReplyTo() != null, "request with JMSReplyTo");
        TextMessage reply = serving.createTextMessage("pong");
        reply.setJMSCorrelationID(received.getJMSMessageID());
        serving.createProducer(received.getJMSReplyTo()).send(reply);
        MessageConsumer replyConsumer = session.createConsumer(replies);
        Message answer = replyConsumer.receive(RECEIVE_TIMEOUT_MS);
        require(answer instanceof TextMessage, "reply arrives on the temporary queue");
        equal("pong", ((TextMessage) answer).getText(), "reply text");
        equal(request.getJMSMessageID(), answer.getJMSCorrelationID(), "correlated");
        serving.close();
        replyConsumer.close();
        replies.delete();
        session.close();
    }
}
