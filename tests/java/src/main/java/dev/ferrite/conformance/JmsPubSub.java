package dev.ferrite.conformance;

import static dev.ferrite.conformance.Checks.require;

import com.ibm.mq.jms.MQConnectionFactory;
import com.ibm.msg.client.wmq.WMQConstants;
import javax.jms.Connection;
import javax.jms.MessageProducer;
import javax.jms.Session;
import javax.jms.TextMessage;
import javax.jms.Topic;

/**
 * Publish/subscribe by IBM MQ classes for JMS against a Ferrite queue manager: a topic publisher
 * (MQOPEN of a topic with its ObjectString, MQPUT as publish). The publications are received by
 * the Rust test's own subscription.
 *
 * <p>Arguments: queue manager, host, port, channel, topic string, number of publications.
 */
public final class JmsPubSub {
    private static final long RECEIVE_TIMEOUT_MS = 5_000;
    private final MQConnectionFactory factory = new MQConnectionFactory();
    private final String topicString;
    private final int publications;

    private JmsPubSub(String[] args) throws Exception {
        factory.setQueueManager(args[0]);
        factory.setHostName(args[1]);
        factory.setPort(Integer.parseInt(args[2]));
        factory.setChannel(args[3]);
        factory.setTransportType(WMQConstants.WMQ_CM_CLIENT);
        topicString = args[4];
        publications = Integer.parseInt(args[5]);
    }

    public static void main(String[] args) throws Exception {
        System.exit(new JmsPubSub(args).run());
    }

    private int run() {
        Checks checks = new Checks();
        checks.check("topic publisher publishes", this::publish);
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
}
