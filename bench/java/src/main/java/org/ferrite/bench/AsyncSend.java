package org.ferrite.bench;

import com.ibm.mq.jms.MQConnectionFactory;
import com.ibm.msg.client.wmq.WMQConstants;
import javax.jms.BytesMessage;
import javax.jms.Connection;
import javax.jms.DeliveryMode;
import javax.jms.MessageConsumer;
import javax.jms.MessageProducer;
import javax.jms.Session;

/**
 * Asynchronous put through IBM's JMS client, before and after: one producer sends 1,000-byte
 * non-persistent messages outside a transaction to a queue defined DEFPRESP(SYNC) (every send
 * waits for the queue manager's reply: the behaviour before asynchronous put) and to one defined
 * DEFPRESP(ASYNC) (the client sends without waiting), alternately, ROUNDS times; each cell is
 * drained afterwards.
 *
 * <p>Usage: {@code AsyncSend PORT QMGR [CHANNEL]} against a running Ferrite queue manager with
 * {@code DEFINE QLOCAL(BENCH.SYNC)} and {@code DEFINE QLOCAL(BENCH.ASYNC) DEFPRESP(ASYNC)}; the
 * classpath of {@code LoadGenerator}. Prints sends/s and microseconds per send for each cell.
 */
public final class AsyncSend {
    static final int ROUNDS = 3;
    static final int SENDS = 5_000;
    static final int SIZE = 1_000;

    public static void main(String[] args) throws Exception {
        MQConnectionFactory factory = new MQConnectionFactory();
        factory.setHostName("127.0.0.1");
        factory.setPort(Integer.parseInt(args[0]));
        factory.setQueueManager(args[1]);
        factory.setChannel(args.length > 2 ? args[2] : "DEV.APP.SVRCONN");
        factory.setTransportType(WMQConstants.WMQ_CM_CLIENT);
        Connection connection = factory.createConnection();
        connection.start();
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        byte[] body = new byte[SIZE];
        for (int round = 0; round < ROUNDS; round++) {
            for (String name : new String[] {"BENCH.SYNC", "BENCH.ASYNC"}) {
                javax.jms.Queue queue = session.createQueue(name);
                MessageProducer producer = session.createProducer(queue);
                producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
                long start = System.nanoTime();
                for (int i = 0; i < SENDS; i++) {
                    BytesMessage message = session.createBytesMessage();
                    message.writeBytes(body);
                    producer.send(message);
                }
                long elapsed = System.nanoTime() - start;
                MessageConsumer drain = session.createConsumer(queue);
                int received = 0;
                while (drain.receive(2_000) != null) {
                    received++;
                }
                System.out.printf("%-11s %6.0f sends/s, %6.1f us per send (%d received)%n", name,
                        SENDS * 1e9 / elapsed, elapsed / 1e3 / SENDS, received);
                producer.close();
                drain.close();
            }
        }
        connection.close();
        System.exit(0);
    }
}
