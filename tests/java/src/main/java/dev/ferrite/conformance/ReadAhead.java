package dev.ferrite.conformance;

import static dev.ferrite.conformance.Checks.equal;
import static dev.ferrite.conformance.Checks.require;

import com.ibm.mq.MQException;
import com.ibm.mq.MQGetMessageOptions;
import com.ibm.mq.MQMessage;
import com.ibm.mq.MQPutMessageOptions;
import com.ibm.mq.MQQueue;
import com.ibm.mq.MQQueueManager;
import com.ibm.mq.constants.CMQC;
import java.util.Hashtable;

/**
 * Read-ahead with IBM MQ classes for Java: non-persistent messages streamed to the client ahead
 * of its MQGETs from a queue defined DEFREADA(YES), in order and complete; the same queue read
 * without read-ahead (MQOO_NO_READ_AHEAD); MQCLOSE with messages read ahead and not consumed.
 * Arguments: queue manager name, host, port, channel, queue (DEFREADA(YES), empty), messages.
 * Prints "RATE <mode> <n> msgs/s" for each mode.
 */
public final class ReadAhead {
    private final String qmgrName;
    private final Hashtable<String, Object> properties = new Hashtable<>();
    private final String queueName;
    private final int messages;

    private ReadAhead(String[] args) {
        qmgrName = args[0];
        properties.put(CMQC.HOST_NAME_PROPERTY, args[1]);
        properties.put(CMQC.PORT_PROPERTY, Integer.parseInt(args[2]));
        properties.put(CMQC.CHANNEL_PROPERTY, args[3]);
        properties.put(CMQC.TRANSPORT_PROPERTY, CMQC.TRANSPORT_MQSERIES_CLIENT);
        queueName = args[4];
        messages = Integer.parseInt(args[5]);
    }

    public static void main(String[] args) throws Exception {
        System.exit(new ReadAhead(args).run());
    }

    private MQQueueManager connect() throws MQException {
        return new MQQueueManager(qmgrName, properties);
    }

    private void fill(MQQueueManager qmgr, int count) throws Exception {
        MQQueue queue = qmgr.accessQueue(queueName, CMQC.MQOO_OUTPUT);
        MQPutMessageOptions pmo = new MQPutMessageOptions();
        pmo.options = CMQC.MQPMO_NO_SYNCPOINT;
        for (int index = 0; index < count; index++) {
            MQMessage message = new MQMessage();
            message.format = CMQC.MQFMT_STRING;
            message.persistence = CMQC.MQPER_NOT_PERSISTENT;
            message.writeString("message " + index);
            queue.put(message, pmo);
        }
        queue.close();
    }

    /** Gets `count` messages in order through a handle opened with `openOptions`. */
    private double drain(MQQueueManager qmgr, int openOptions, int count) throws Exception {
        MQQueue queue = qmgr.accessQueue(queueName, openOptions);
        MQGetMessageOptions gmo = new MQGetMessageOptions();
        gmo.options = CMQC.MQGMO_NO_SYNCPOINT | CMQC.MQGMO_WAIT;
        gmo.waitInterval = 5_000;
        long started = System.nanoTime();
        for (int index = 0; index < count; index++) {
            MQMessage message = new MQMessage();
            queue.get(message, gmo);
            equal("message " + index, message.readStringOfByteLength(message.getDataLength()),
                    "message in order");
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        queue.close();
        return count / seconds;
    }

    private int depth(MQQueueManager qmgr) throws Exception {
        MQQueue queue = qmgr.accessQueue(queueName, CMQC.MQOO_INQUIRE);
        int depth = queue.getCurrentDepth();
        queue.close();
        return depth;
    }

    private int run() {
        Checks checks = new Checks();
        checks.check("DEFREADA(YES): messages read ahead arrive complete and in order", () -> {
            MQQueueManager qmgr = connect();
            fill(qmgr, messages);
            double rate = drain(qmgr, CMQC.MQOO_INPUT_AS_Q_DEF | CMQC.MQOO_READ_AHEAD_AS_Q_DEF,
                    messages);
            System.out.printf("RATE read-ahead %.0f msgs/s%n", rate);
            equal(0, depth(qmgr), "queue drained");
            qmgr.disconnect();
        });
        checks.check("MQOO_NO_READ_AHEAD: the same queue read one MQGET at a time", () -> {
            MQQueueManager qmgr = connect();
            fill(qmgr, messages);
            double rate = drain(qmgr, CMQC.MQOO_INPUT_AS_Q_DEF | CMQC.MQOO_NO_READ_AHEAD,
                    messages);
            System.out.printf("RATE no-read-ahead %.0f msgs/s%n", rate);
            equal(0, depth(qmgr), "queue drained");
            qmgr.disconnect();
        });
        checks.check("MQCLOSE with messages read ahead: none is delivered twice", () -> {
            MQQueueManager qmgr = connect();
            fill(qmgr, 100);
            MQQueue queue = qmgr.accessQueue(queueName,
                    CMQC.MQOO_INPUT_AS_Q_DEF | CMQC.MQOO_READ_AHEAD);
            MQGetMessageOptions gmo = new MQGetMessageOptions();
            gmo.options = CMQC.MQGMO_NO_SYNCPOINT | CMQC.MQGMO_WAIT;
            gmo.waitInterval = 5_000;
            for (int index = 0; index < 10; index++) {
                MQMessage message = new MQMessage();
                queue.get(message, gmo);
                equal("message " + index, message.readStringOfByteLength(message.getDataLength()),
                        "message in order");
            }
            queue.close();
            // What was read ahead and not consumed is discarded with the handle (MQ documents
            // that non-persistent messages read ahead are lost at MQCLOSE); the rest is still
            // there, after them, and nothing comes twice.
            int left = depth(qmgr);
            require(left <= 90, "at most the 90 not consumed are left: " + left);
            if (left > 0) {
                MQQueue again = qmgr.accessQueue(queueName,
                        CMQC.MQOO_INPUT_AS_Q_DEF | CMQC.MQOO_NO_READ_AHEAD);
                MQMessage message = new MQMessage();
                again.get(message, gmo);
                String first = message.readStringOfByteLength(message.getDataLength());
                int number = Integer.parseInt(first.substring("message ".length()));
                require(number >= 10, "the first left is after those consumed: " + first);
                equal(100 - number - 1, left - 1, "those left are the last ones");
                MQGetMessageOptions rest = new MQGetMessageOptions();
                rest.options = CMQC.MQGMO_NO_SYNCPOINT | CMQC.MQGMO_NO_WAIT;
                for (int index = 1; index < left; index++) {
                    again.get(new MQMessage(), rest);
                }
                again.close();
            }
            equal(0, depth(qmgr), "queue emptied");
            qmgr.disconnect();
        });
        return checks.finish();
    }
}
