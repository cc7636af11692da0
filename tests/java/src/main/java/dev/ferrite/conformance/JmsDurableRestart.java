package dev.ferrite.conformance;

import static dev.ferrite.conformance.Checks.equal;
import static dev.ferrite.conformance.Checks.require;

import com.ibm.mq.jms.MQConnectionFactory;
import javax.jms.Connection;
import javax.jms.DeliveryMode;
import javax.jms.Message;
import javax.jms.MessageConsumer;
import javax.jms.MessageProducer;
import javax.jms.Session;
import javax.jms.TextMessage;
import javax.jms.Topic;

/**
 * A durable subscription by IBM MQ classes for JMS across a restart of the Ferrite queue manager.
 * Phase "before": subscribe durably, close the subscriber, publish persistently while it is away.
 * Phase "after" (the queue manager restarted in between): the reopened durable subscriber
 * receives those publications, then unsubscribes.
 *
 * <p>Arguments: queue manager, host, port, channel, topic string, phase.
 */
public final class JmsDurableRestart {
    private static final long RECEIVE_TIMEOUT_MS = 5_000;
    private static final String CLIENT_ID = "FERRITE.RESTART";
    private static final String NAME = "FERRITE.RESTART.SUB";
    private static final int PUBLICATIONS = 3;
    private final MQConnectionFactory factory;
    private final String topicString;
    private final String phase;

    private JmsDurableRestart(String[] args) throws Exception {
        factory = ClientFactory.fromArguments(args);
        topicString = args[4];
        phase = args[5];
    }

    public static void main(String[] args) throws Exception {
        System.exit(new JmsDurableRestart(args).run());
    }

    private int run() {
        Checks checks = new Checks();
        if (phase.equals("before")) {
            checks.check("durable subscription made, publications while away", this::before);
        } else {
            checks.check("durable subscriber receives them after the restart", this::after);
        }
        return checks.finish();
    }

    private Session session(Connection connection) throws Exception {
        connection.setClientID(CLIENT_ID);
        connection.start();
        return connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    }

    private void before() throws Exception {
        Connection connection = factory.createConnection();
        try {
            Session session = session(connection);
            Topic topic = session.createTopic(topicString);
            session.createDurableSubscriber(topic, NAME).close();
            MessageProducer publisher = session.createProducer(topic);
            publisher.setDeliveryMode(DeliveryMode.PERSISTENT);
            for (int i = 0; i < PUBLICATIONS; i++) {
                publisher.send(session.createTextMessage("kept " + i));
            }
            publisher.close();
        } finally {
            connection.close();
        }
    }

    private void after() throws Exception {
        Connection connection = factory.createConnection();
        try {
            Session session = session(connection);
            MessageConsumer subscriber = session.createDurableSubscriber(session.createTopic(topicString), NAME);
            for (int i = 0; i < PUBLICATIONS; i++) {
                Message received = subscriber.receive(RECEIVE_TIMEOUT_MS);
                require(received instanceof TextMessage, "publication " + i + " arrives: " + received);
                equal("kept " + i, ((TextMessage) received).getText(), "text of publication " + i);
            }
            require(subscriber.receiveNoWait() == null, "no more publications");
            subscriber.close();
            session.unsubscribe(NAME);
        } finally {
            connection.close();
        }
    }
}
