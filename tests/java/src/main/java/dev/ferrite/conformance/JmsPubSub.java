package dev.ferrite.conformance;

import static dev.ferrite.conformance.Checks.equal;
import static dev.ferrite.conformance.Checks.require;

import com.ibm.mq.jms.MQConnectionFactory;
import javax.jms.Connection;
import javax.jms.Message;
import javax.jms.MessageConsumer;
import javax.jms.MessageProducer;
import javax.jms.Session;
import javax.jms.TextMessage;
import javax.jms.Topic;

/**
 * Publish/subscribe by IBM MQ classes for JMS against a Ferrite queue manager: a topic publisher
 * (MQOPEN of a topic with its ObjectString, MQPUT as publish), whose publications the Rust
 * test's own subscription receives; and a non-durable subscriber (MQSUB with a managed queue,
 * MQGET from it) receiving what a publisher publishes under the topic's `jms` level; a durable
 * subscriber (under `durable`) that receives what was published while it was closed, and is
 * then unsubscribed; a subscriber to `wild/#` with a message selector, delivering to a
 * MessageListener, that gets the selected publications of two topics below it; a temporary
 * topic's subscriber and publisher.
 *
 * <p>Arguments: queue manager, host, port, channel, topic string, number of publications.
 */
public final class JmsPubSub {
    private static final long RECEIVE_TIMEOUT_MS = 5_000;
    private final MQConnectionFactory factory;
    private final String topicString;
    private final int publications;

    private JmsPubSub(String[] args) throws Exception {
        factory = ClientFactory.fromArguments(args);
        topicString = args[4];
        publications = Integer.parseInt(args[5]);
    }

    public static void main(String[] args) throws Exception {
        System.exit(new JmsPubSub(args).run());
    }

    private int run() {
        Checks checks = new Checks();
        checks.check("topic publisher publishes", this::publish);
        checks.check("non-durable subscriber receives what is published", this::nonDurable);
        checks.check("durable subscriber receives what was published while it was away", this::durable);
        checks.check("wildcard subscriber with a selector, as a message listener", this::wildcardListener);
        checks.check("temporary topic", this::temporaryTopic);
        return checks.finish();
    }

    private void publish() throws Exception {
        Connection connection = factory.createConnection();
        try {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic topic = session.createTopic(topicString);
            MessageProducer publisher = session.createProducer(topic);
            for (int i = 0; i < publications; i++) {
                TextMessage message = session.createTextMessage("publication " + i);
                publisher.send(message);
                require(message.getJMSDestination() instanceof Topic, "JMSDestination is a topic");
            }
            publisher.close();
        } finally {
            connection.close();
        }
    }

    private void nonDurable() throws Exception {
        Connection connection = factory.createConnection();
        try {
            connection.start();
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic topic = session.createTopic(topicString + "/jms");
            MessageConsumer subscriber = session.createConsumer(topic);
            MessageProducer publisher = session.createProducer(topic);
            for (int i = 0; i < publications; i++) {
                publisher.send(session.createTextMessage("publication " + i));
            }
            for (int i = 0; i < publications; i++) {
                Message received = subscriber.receive(RECEIVE_TIMEOUT_MS);
                require(received instanceof TextMessage, "publication " + i + " arrives: " + received);
                equal("publication " + i, ((TextMessage) received).getText(), "text of publication " + i);
            }
            require(subscriber.receiveNoWait() == null, "no more publications");
            subscriber.close();
            publisher.close();
        } finally {
            connection.close();
        }
    }

    private void durable() throws Exception {
        String name = "FERRITE.DURABLE";
        Connection connection = factory.createConnection();
        try {
            connection.setClientID("FERRITE.PUBSUB");
            connection.start();
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic topic = session.createTopic(topicString + "/durable");
            MessageConsumer subscriber = session.createDurableSubscriber(topic, name);
            MessageProducer publisher = session.createProducer(topic);
            publisher.send(session.createTextMessage("while subscribed"));
            Message received = subscriber.receive(RECEIVE_TIMEOUT_MS);
            require(received instanceof TextMessage, "publication arrives: " + received);
            equal("while subscribed", ((TextMessage) received).getText(), "text while subscribed");
            subscriber.close();
            publisher.send(session.createTextMessage("while away"));
            subscriber = session.createDurableSubscriber(topic, name);
            received = subscriber.receive(RECEIVE_TIMEOUT_MS);
            require(received instanceof TextMessage, "publication kept while away arrives: " + received);
            equal("while away", ((TextMessage) received).getText(), "text while away");
            require(subscriber.receiveNoWait() == null, "no more publications");
            subscriber.close();
            session.unsubscribe(name);
            publisher.close();
        } finally {
            connection.close();
        }
    }

    private void wildcardListener() throws Exception {
        Connection connection = factory.createConnection();
        try {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Session listening = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer subscriber =
                    listening.createConsumer(listening.createTopic(topicString + "/wild/#"), "colour = 'red'");
            java.util.concurrent.BlockingQueue<String> got = new java.util.concurrent.LinkedBlockingQueue<>();
            subscriber.setMessageListener(message -> {
                try {
                    got.add(((TextMessage) message).getText());
                } catch (Exception e) {
                    got.add("not text: " + e);
                }
            });
            connection.start();
            String[] levels = {"apples", "cherries/morello"};
            for (String level : levels) {
                MessageProducer publisher = session.createProducer(session.createTopic(topicString + "/wild/" + level));
                for (String colour : new String[] {"green", "red"}) {
                    TextMessage message = session.createTextMessage(colour + " " + level);
                    message.setStringProperty("colour", colour);
                    publisher.send(message);
                }
                publisher.close();
            }
            for (String level : levels) {
                String text = got.poll(RECEIVE_TIMEOUT_MS, java.util.concurrent.TimeUnit.MILLISECONDS);
                equal("red " + level, text, "selected publication on " + level);
            }
            require(got.poll(200, java.util.concurrent.TimeUnit.MILLISECONDS) == null, "only red publications");
            subscriber.close();
        } finally {
            connection.close();
        }
    }

    private void temporaryTopic() throws Exception {
        Connection connection = factory.createConnection();
        try {
            connection.start();
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            javax.jms.TemporaryTopic topic = session.createTemporaryTopic();
            MessageConsumer subscriber = session.createConsumer(topic);
            MessageProducer publisher = session.createProducer(topic);
            publisher.send(session.createTextMessage("temporary"));
            Message received = subscriber.receive(RECEIVE_TIMEOUT_MS);
            require(received instanceof TextMessage, "publication arrives: " + received);
            equal("temporary", ((TextMessage) received).getText(), "text on the temporary topic");
            subscriber.close();
            publisher.close();
            topic.delete();
        } finally {
            connection.close();
        }
    }
}
