package dev.ferrite.conformance;

import static dev.ferrite.conformance.Checks.equal;
import static dev.ferrite.conformance.Checks.require;

import com.ibm.mq.jms.MQConnectionFactory;
import com.ibm.msg.client.wmq.WMQConstants;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.jms.Connection;
import javax.jms.DeliveryMode;
import javax.jms.Message;
import javax.jms.MessageConsumer;
import javax.jms.MessageProducer;
import javax.jms.Queue;
import javax.jms.Session;
import javax.jms.TextMessage;

/**
 * JMS receives that find nothing, with IBM MQ classes for JMS against a DEFREADA(YES) queue
 * (read-ahead): receive(timeout) on the empty queue returns null once its timeout is over,
 * receiveNoWait returns null, and the consumer then receives what is sent after; outside and
 * inside a transaction. A receive that never returns fails its check after a generous bound
 * (never a timing assertion: only that it returns). Arguments: queue manager name, host, port,
 * channel, queue (DEFREADA(YES), empty).
 */
public final class ReadAheadReceive {
    /** What a receive that finds nothing waits. */
    private static final long EMPTY_TIMEOUT_MS = 300;
    /** What a receive of a message that is there waits at most. */
    private static final long RECEIVE_TIMEOUT_MS = 5_000;
    /** Beyond this, a receive is taken to hang. */
    private static final long HANG_BOUND_S = 60;

    private final MQConnectionFactory factory = new MQConnectionFactory();
    private final String queueName;
    private final ExecutorService receiver = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "receiver");
        thread.setDaemon(true);
        return thread;
    });

    private ReadAheadReceive(String[] args) throws Exception {
        factory.setQueueManager(args[0]);
        factory.setHostName(args[1]);
        factory.setPort(Integer.parseInt(args[2]));
        factory.setChannel(args[3]);
        factory.setTransportType(WMQConstants.WMQ_CM_CLIENT);
        queueName = args[4];
    }

    public static void main(String[] args) throws Exception {
        System.exit(new ReadAheadReceive(args).run());
    }

    interface Receive {
        Message call() throws Exception;
    }

    /** Runs `receive` on the receiver thread: its message, or a failure if it hangs. */
    private Message returning(String what, Receive receive) throws Exception {
        Future<Message> result = receiver.submit(receive::call);
        try {
            return result.get(HANG_BOUND_S, TimeUnit.SECONDS);
        } catch (TimeoutException hung) {
            throw new AssertionError(what + " did not return");
        }
    }

    /** Sends `text` from a session of its own. */
    private void send(Connection connection, String text, int deliveryMode) throws Exception {
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageProducer producer = session.createProducer(session.createQueue(queueName));
        producer.setDeliveryMode(deliveryMode);
        producer.send(session.createTextMessage(text));
        session.close();
    }

    private static String text(Message message) throws Exception {
        require(message != null, "a message");
        return ((TextMessage) message).getText();
    }

    /**
     * receive(timeout) on the empty queue returns null, twice; a message sent after is received;
     * the queue is empty again after.
     */
    private void timeoutThenMessage(boolean transacted, int deliveryMode) throws Exception {
        Connection connection = factory.createConnection();
        try {
            connection.start();
            Session session = connection.createSession(transacted,
                    transacted ? Session.SESSION_TRANSACTED : Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(queueName);
            MessageConsumer consumer = session.createConsumer(queue);
            for (int attempt = 0; attempt < 2; attempt++) {
                equal(null, returning("receive(timeout) on the empty queue",
                        () -> consumer.receive(EMPTY_TIMEOUT_MS)), "receive(timeout) found nothing");
            }
            send(connection, "after the timeout", deliveryMode);
            equal("after the timeout", text(returning("receive(timeout) of a message sent",
                    () -> consumer.receive(RECEIVE_TIMEOUT_MS))), "message received");
            if (transacted) {
                session.commit();
            }
            equal(null, returning("receive(timeout) on the queue emptied",
                    () -> consumer.receive(EMPTY_TIMEOUT_MS)), "nothing more");
            consumer.close();
            session.close();
        } finally {
            connection.close();
        }
    }

    /** receiveNoWait on the empty queue returns null; then a message sent is received. */
    private void noWaitThenMessage() throws Exception {
        Connection connection = factory.createConnection();
        try {
            connection.start();
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(session.createQueue(queueName));
            for (int attempt = 0; attempt < 2; attempt++) {
                equal(null, returning("receiveNoWait on the empty queue", consumer::receiveNoWait),
                        "receiveNoWait found nothing");
            }
            send(connection, "after no wait", DeliveryMode.NON_PERSISTENT);
            equal("after no wait", text(returning("receive(timeout) of a message sent",
                    () -> consumer.receive(RECEIVE_TIMEOUT_MS))), "message received");
            equal(null, returning("receiveNoWait on the queue emptied", consumer::receiveNoWait),
                    "nothing more");
            consumer.close();
            session.close();
        } finally {
            connection.close();
        }
    }

    private int run() {
        Checks checks = new Checks();
        checks.check("receive(timeout) with nothing there returns null, then receives",
                () -> timeoutThenMessage(false, DeliveryMode.NON_PERSISTENT));
        checks.check("the same with a persistent message",
                () -> timeoutThenMessage(false, DeliveryMode.PERSISTENT));
        checks.check("the same in a transacted session",
                () -> timeoutThenMessage(true, DeliveryMode.NON_PERSISTENT));
        checks.check("receiveNoWait with nothing there returns null, then receives",
                this::noWaitThenMessage);
        return checks.finish();
    }
}
