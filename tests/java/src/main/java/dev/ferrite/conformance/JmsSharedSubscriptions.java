package dev.ferrite.conformance;

import static dev.ferrite.conformance.Checks.equal;
import static dev.ferrite.conformance.Checks.require;

import com.ibm.mq.jms.MQConnectionFactory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.jms.Connection;
import javax.jms.JMSException;
import javax.jms.Message;
import javax.jms.MessageConsumer;
import javax.jms.MessageProducer;
import javax.jms.Session;
import javax.jms.TextMessage;
import javax.jms.Topic;

/**
 * JMS 2.0 shared subscriptions by IBM MQ classes for JMS against a Ferrite queue manager.
 * Two consumers on two connections share one subscription (several MQSUB handles on one
 * subscription name, one managed queue), so each publication reaches exactly one of them:
 * a shared non-durable subscription ({@code createSharedConsumer}) that lives while either
 * consumer is open, and a shared durable one ({@code createSharedDurableConsumer}) that keeps
 * what is published while both are closed, until it is unsubscribed.
 *
 * <p>Arguments: queue manager, host, port, channel, topic string, number of publications.
 */
public final class JmsSharedSubscriptions {
    private static final long RECEIVE_TIMEOUT_MS = 5_000;
    private static final String SHARED_NAME = "FERRITE.SHARED";
    private static final String DURABLE_NAME = "FERRITE.SHARED.DURABLE";
    private final MQConnectionFactory factory;
    private final String topicString;
    private final int publications;

    private JmsSharedSubscriptions(String[] args) throws Exception {
        factory = ClientFactory.fromArguments(args);
        topicString = args[4];
        publications = Integer.parseInt(args[5]);
    }

    public static void main(String[] args) throws Exception {
        System.exit(new JmsSharedSubscriptions(args).run());
    }

    private int run() {
        Checks checks = new Checks();
        checks.check("shared non-durable subscription: each publication to one consumer", this::sharedNonDurable);
        checks.check("shared durable subscription: kept while closed, until unsubscribed", this::sharedDurable);
        return checks.finish();
    }

    /** Publish {@code count} texts "prefix i" on {@code topic}. */
    private static void publish(Session session, Topic topic, String prefix, int count) throws JMSException {
        MessageProducer publisher = session.createProducer(topic);
        for (int i = 0; i < count; i++) {
            publisher.send(session.createTextMessage(prefix + " " + i));
        }
        publisher.close();
    }

    /**
     * Receive from the consumers in turn until {@code count} texts have arrived, then check
     * that each of "prefix 0".."prefix count-1" arrived exactly once and nothing more is left.
     * Returns how many each consumer received.
     */
    private static int[] receiveOnce(List<MessageConsumer> consumers, String prefix, int count) throws JMSException {
        Set<String> received = new HashSet<>();
        int[] each = new int[consumers.size()];
        int misses = 0;
        while (received.size() < count) {
            int index = (received.size() + misses) % consumers.size();
            Message message = consumers.get(index).receive(RECEIVE_TIMEOUT_MS / consumers.size());
            if (message == null) {
                misses++;
                require(misses <= 4 * consumers.size(), "publications arrive: " + received.size() + " of " + count);
                continue;
            }
            require(message instanceof TextMessage, "a text publication: " + message);
            String text = ((TextMessage) message).getText();
            require(text.startsWith(prefix + " "), "a publication of this phase: " + text);
            require(received.add(text), "publication delivered once: " + text);
            each[index]++;
        }
        for (MessageConsumer consumer : consumers) {
            require(consumer.receiveNoWait() == null, "no publication twice");
        }
        return each;
    }

    /** Each of two consumers taking turns at the shared queue received some publications. */
    private void spread(int[] each) {
        System.out.printf("received by each consumer: %d and %d%n", each[0], each[1]);
        equal(publications, each[0] + each[1], "publications received between the consumers");
        require(each[0] > 0 && each[1] > 0, "both consumers received publications");
    }

    private Session session(Connection connection) throws JMSException {
        connection.start();
        return connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    }

    private void sharedNonDurable() throws Exception {
        Connection first = factory.createConnection();
        Connection second = factory.createConnection();
        try {
            Session one = session(first);
            Session two = session(second);
            Topic topic = one.createTopic(topicString + "/nondurable");
            MessageConsumer a = one.createSharedConsumer(topic, SHARED_NAME);
            MessageConsumer b = two.createSharedConsumer(two.createTopic(topicString + "/nondurable"), SHARED_NAME);
            publish(one, topic, "both", publications);
            int[] each = receiveOnce(List.of(a, b), "both", publications);
            spread(each);
            // The subscription lives while either consumer is open.
            a.close();
            publish(one, topic, "second", publications);
            receiveOnce(List.of(b), "second", publications);
            b.close();
            // With both closed it is gone: a new shared consumer starts with nothing.
            publish(one, topic, "unsubscribed", 1);
            MessageConsumer again = two.createSharedConsumer(topic, SHARED_NAME);
            require(again.receive(200) == null, "nothing kept once every consumer closed");
            again.close();
        } finally {
            first.close();
            second.close();
        }
    }

    private void sharedDurable() throws Exception {
        Connection first = factory.createConnection();
        Connection second = factory.createConnection();
        try {
            Session one = session(first);
            Session two = session(second);
            Topic topic = one.createTopic(topicString + "/durable");
            MessageConsumer a = one.createSharedDurableConsumer(topic, DURABLE_NAME);
            MessageConsumer b = two.createSharedDurableConsumer(topic, DURABLE_NAME);
            publish(one, topic, "both", publications);
            int[] each = receiveOnce(List.of(a, b), "both", publications);
            spread(each);
            a.close();
            b.close();
            publish(one, topic, "away", publications);
            MessageConsumer back = two.createSharedDurableConsumer(topic, DURABLE_NAME);
            receiveOnce(List.of(back), "away", publications);
            // Unsubscribing while a consumer is open fails, as JMS requires.
            boolean refused = false;
            try {
                one.unsubscribe(DURABLE_NAME);
            } catch (JMSException expected) {
                refused = true;
            }
            require(refused, "unsubscribe refused while a consumer is open");
            back.close();
            one.unsubscribe(DURABLE_NAME);
            publish(one, topic, "gone", 1);
            List<MessageConsumer> none = new ArrayList<>();
            none.add(two.createSharedDurableConsumer(topic, DURABLE_NAME));
            require(none.get(0).receive(200) == null, "nothing kept after unsubscribe");
            none.get(0).close();
            two.unsubscribe(DURABLE_NAME);
        } finally {
            first.close();
            second.close();
        }
    }
}
