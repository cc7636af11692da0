package org.ferrite.bench;

import javax.jms.ConnectionFactory;
import javax.jms.JMSException;
import javax.jms.Queue;
import javax.jms.Session;

import com.ibm.msg.client.wmq.WMQConstants;

/**
 * How the load generator reaches each broker: a JMS ConnectionFactory from the broker's own JMS
 * client, and how a queue name becomes a JMS Queue. Nothing else in the generator knows which
 * broker it drives.
 */
final class Brokers {
    private Brokers() {}

    /** The brokers this generator drives. */
    enum Kind {
        /** Ferrite through its TCP listener, with IBM MQ's JMS client (com.ibm.mq.allclient). */
        FERRITE,
        /** RabbitMQ with the RabbitMQ JMS client (AMQP 0-9-1), durable classic queues. */
        RABBITMQ,
        /** Apache ActiveMQ Artemis with its own JMS client (core protocol). */
        ARTEMIS;

        String label() {
            return name().toLowerCase();
        }

        static Kind parse(String text) {
            for (Kind kind : values()) {
                if (kind.label().equals(text)) {
                    return kind;
                }
            }
            throw new IllegalArgumentException(
                    "unknown broker '" + text + "': expected ferrite, rabbitmq or artemis");
        }
    }

    /** Where the broker listens and, for Ferrite, which queue manager and SVRCONN channel. */
    record Endpoint(Kind kind, String host, int port, String queueManager, String channel) {}

    static ConnectionFactory factory(Endpoint endpoint) throws JMSException {
        switch (endpoint.kind()) {
            case FERRITE: {
                com.ibm.mq.jms.MQConnectionFactory factory = new com.ibm.mq.jms.MQConnectionFactory();
                factory.setTransportType(WMQConstants.WMQ_CM_CLIENT);
                factory.setHostName(endpoint.host());
                factory.setPort(endpoint.port());
                factory.setQueueManager(endpoint.queueManager());
                factory.setChannel(endpoint.channel());
                return factory;
            }
            case RABBITMQ: {
                com.rabbitmq.jms.admin.RMQConnectionFactory factory =
                        new com.rabbitmq.jms.admin.RMQConnectionFactory();
                factory.setHost(endpoint.host());
                factory.setPort(endpoint.port());
                factory.setUsername("guest");
                factory.setPassword("guest");
                factory.setVirtualHost("/");
                return factory;
            }
            case ARTEMIS:
                return new org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory(
                        "tcp://" + endpoint.host() + ":" + endpoint.port());
            default:
                throw new IllegalStateException("unreachable");
        }
    }

    /**
     * The queue called {@code name}. Ferrite's queues are MQ queues defined beforehand (the script
     * defines them with MQSC); messages go without an RFH2 header (targetClient=1, "MQ"), so the
     * queue manager sees plain MQMD + data. RabbitMQ's JMS client declares a durable classic queue
     * of that name; Artemis auto-creates an anycast queue.
     */
    static Queue queue(Kind kind, Session session, String name) throws JMSException {
        if (kind == Kind.FERRITE) {
            return session.createQueue("queue:///" + name + "?targetClient=1");
        }
        return session.createQueue(name);
    }
}
