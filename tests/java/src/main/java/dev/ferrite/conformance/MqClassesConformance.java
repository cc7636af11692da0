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
import java.util.Arrays;
import java.util.Hashtable;

/**
 * IBM MQ classes for Java against a Ferrite queue manager, unmodified, over a SVRCONN channel.
 * Arguments: queue manager name, host, port, channel, queue, indexed queue (INDXTYPE(CORRELID)).
 * Each check leaves the queues empty.
 */
public final class MqClassesConformance {
    private final String qmgrName;
    private final Hashtable<String, Object> properties = new Hashtable<>();
    private final String queueName;
    private final String indexedQueueName;

    private MqClassesConformance(String[] args) {
        qmgrName = args[0];
        properties.put(CMQC.HOST_NAME_PROPERTY, args[1]);
        properties.put(CMQC.PORT_PROPERTY, Integer.parseInt(args[2]));
        properties.put(CMQC.CHANNEL_PROPERTY, args[3]);
        properties.put(CMQC.TRANSPORT_PROPERTY, CMQC.TRANSPORT_MQSERIES_CLIENT);
        queueName = args[4];
        indexedQueueName = args[5];
    }

    public static void main(String[] args) throws Exception {
        MqClassesConformance conformance = new MqClassesConformance(args);
        System.exit(conformance.run());
    }

    private MQQueueManager connect() throws MQException {
        return new MQQueueManager(qmgrName, properties);
    }

    private static MQMessage text(String body, int persistence) throws Exception {
        MQMessage message = new MQMessage();
        message.format = CMQC.MQFMT_STRING;
        message.persistence = persistence;
        message.writeString(body);
        return message;
    }

    private static String body(MQMessage message) throws Exception {
        return message.readStringOfByteLength(message.getDataLength());
    }

    private static int reasonOf(Check check) throws Exception {
        try {
            check.run();
        } catch (MQException failure) {
            return failure.reasonCode;
        }
        return 0;
    }

    interface Check {
        void run() throws Exception;
    }

    private int run() {
        Checks checks = new Checks();
        checks.check("connect and inquire the queue manager", () -> {
            MQQueueManager qmgr = connect();
            equal(qmgrName, qmgr.getName().trim(), "queue manager name");
            require(qmgr.getCommandLevel() > 0, "command level");
            qmgr.disconnect();
        });
        checks.check("put and get non-persistent", () -> putGet(CMQC.MQPER_NOT_PERSISTENT));
        checks.check("put and get persistent", () -> putGet(CMQC.MQPER_PERSISTENT));
        checks.check("syncpoint: backout hides, commit shows", this::syncpoint);
        checks.check("get by CorrelId with wait on an indexed queue", this::correlIdWithWait);
        checks.check("browse first and next leaves messages", this::browse);
        checks.check("inquire queue attributes", this::inquire);
        checks.check("long message across segments (1 MiB)", this::longMessage);
        checks.check("reason codes: unknown queue 2085, no message 2033", this::reasons);
        checks.check("priority order", this::priorities);
        return checks.finish();
    }

    private void putGet(int persistence) throws Exception {
        MQQueueManager qmgr = connect();
        MQQueue queue = qmgr.accessQueue(queueName, CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED);
        MQMessage sent = text("hello from IBM's client " + persistence, persistence);
        MQPutMessageOptions pmo = new MQPutMessageOptions();
        pmo.options = CMQC.MQPMO_NO_SYNCPOINT | CMQC.MQPMO_NEW_MSG_ID;
        queue.put(sent, pmo);
        require(!Arrays.equals(sent.messageId, new byte[24]), "MsgId assigned at put");
        MQMessage received = new MQMessage();
        MQGetMessageOptions gmo = new MQGetMessageOptions();
        gmo.options = CMQC.MQGMO_NO_SYNCPOINT;
        queue.get(received, gmo);
        equal("hello from IBM's client " + persistence, body(received), "body");
        equal(persistence, received.persistence, "persistence");
        require(Arrays.equals(sent.messageId, received.messageId), "same MsgId");
        equal(CMQC.MQFMT_STRING, received.format, "format");
        queue.close();
        qmgr.disconnect();
    }

    private void syncpoint() throws Exception {
        MQQueueManager qmgr = connect();
        MQQueue queue = qmgr.accessQueue(queueName, CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_INQUIRE);
        MQPutMessageOptions pmo = new MQPutMessageOptions();
        pmo.options = CMQC.MQPMO_SYNCPOINT;
        queue.put(text("backed out", CMQC.MQPER_PERSISTENT), pmo);
        qmgr.backout();
        equal(0, queue.getCurrentDepth(), "depth after backout");
        queue.put(text("committed", CMQC.MQPER_PERSISTENT), pmo);
        qmgr.commit();
        equal(1, queue.getCurrentDepth(), "depth after commit");
        MQGetMessageOptions gmo = new MQGetMessageOptions();
        gmo.options = CMQC.MQGMO_SYNCPOINT;
        MQMessage got = new MQMessage();
        queue.get(got, gmo);
        equal("committed", body(got), "body");
        qmgr.backout();
        MQMessage again = new MQMessage();
        queue.get(again, gmo);
        equal(1, again.backoutCount, "backout count after a backed-out get");
        qmgr.commit();
        equal(0, queue.getCurrentDepth(), "depth after the get committed");
        queue.close();
        qmgr.disconnect();
    }

    private void correlIdWithWait() throws Exception {
        MQQueueManager qmgr = connect();
        MQQueue queue = qmgr.accessQueue(indexedQueueName, CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED);
        byte[] wanted = new byte[24];
        Arrays.fill(wanted, (byte) 7);
        MQPutMessageOptions pmo = new MQPutMessageOptions();
        pmo.options = CMQC.MQPMO_NO_SYNCPOINT;
        for (int i = 0; i < 50; i++) {
            MQMessage other = text("other " + i, CMQC.MQPER_NOT_PERSISTENT);
            other.correlationId = new byte[24];
            other.correlationId[0] = (byte) (i + 1);
            queue.put(other, pmo);
        }
        Thread putter = new Thread(() -> {
            try {
                Thread.sleep(300);
                MQQueueManager second = connect();
                MQQueue output = second.accessQueue(indexedQueueName, CMQC.MQOO_OUTPUT);
                MQMessage reply = text("the reply", CMQC.MQPER_PERSISTENT);
                reply.correlationId = wanted.clone();
                MQPutMessageOptions options = new MQPutMessageOptions();
                options.options = CMQC.MQPMO_NO_SYNCPOINT;
                output.put(reply, options);
                output.close();
                second.disconnect();
            } catch (Exception failure) {
                throw new RuntimeException(failure);
            }
        });
        putter.start();
        MQMessage received = new MQMessage();
        received.correlationId = wanted.clone();
        MQGetMessageOptions gmo = new MQGetMessageOptions();
        gmo.options = CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT;
        gmo.matchOptions = CMQC.MQMO_MATCH_CORREL_ID;
        gmo.waitInterval = 10_000;
        queue.get(received, gmo);
        putter.join();
        equal("the reply", body(received), "body of the message waited for");
        require(Arrays.equals(wanted, received.correlationId), "CorrelId matched");
        for (int i = 0; i < 50; i++) {
            queue.get(new MQMessage(), new MQGetMessageOptions());
        }
        queue.close();
        qmgr.disconnect();
    }

    private void browse() throws Exception {
        MQQueueManager qmgr = connect();
        MQQueue queue = qmgr.accessQueue(queueName,
                CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_BROWSE);
        MQPutMessageOptions pmo = new MQPutMessageOptions();
        pmo.options = CMQC.MQPMO_NO_SYNCPOINT;
        for (int i = 0; i < 3; i++) {
            queue.put(text("browse " + i, CMQC.MQPER_NOT_PERSISTENT), pmo);
        }
        MQGetMessageOptions gmo = new MQGetMessageOptions();
        gmo.options = CMQC.MQGMO_BROWSE_FIRST;
        for (int i = 0; i < 3; i++) {
            MQMessage seen = new MQMessage();
            queue.get(seen, gmo);
            equal("browse " + i, body(seen), "browsed body");
            gmo.options = CMQC.MQGMO_BROWSE_NEXT;
        }
        MQMessage none = new MQMessage();
        int reason = 0;
        try {
            queue.get(none, gmo);
        } catch (MQException end) {
            reason = end.reasonCode;
        }
        equal(CMQC.MQRC_NO_MSG_AVAILABLE, reason, "browse past the end");
        for (int i = 0; i < 3; i++) {
            MQMessage taken = new MQMessage();
            queue.get(taken, new MQGetMessageOptions());
            equal("browse " + i, body(taken), "destructive get after browse");
        }
        queue.close();
        qmgr.disconnect();
    }

    private void inquire() throws Exception {
        MQQueueManager qmgr = connect();
        MQQueue queue = qmgr.accessQueue(queueName, CMQC.MQOO_INQUIRE | CMQC.MQOO_OUTPUT);
        equal(0, queue.getCurrentDepth(), "CURDEPTH");
        require(queue.getMaximumDepth() > 0, "MAXDEPTH");
        require(queue.getMaximumMessageLength() >= 1024 * 1024, "MAXMSGL");
        equal(CMQC.MQQT_LOCAL, queue.getQueueType(), "queue type");
        queue.put(text("depth", CMQC.MQPER_NOT_PERSISTENT));
        equal(1, queue.getCurrentDepth(), "CURDEPTH after a put");
        queue.close();
        MQQueue input = qmgr.accessQueue(queueName, CMQC.MQOO_INPUT_SHARED);
        input.get(new MQMessage());
        input.close();
        qmgr.disconnect();
    }

    private void longMessage() throws Exception {
        MQQueueManager qmgr = connect();
        MQQueue queue = qmgr.accessQueue(queueName, CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED);
        byte[] data = new byte[1024 * 1024];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 31 + 7);
        }
        MQMessage sent = new MQMessage();
        sent.persistence = CMQC.MQPER_PERSISTENT;
        sent.write(data);
        MQPutMessageOptions pmo = new MQPutMessageOptions();
        pmo.options = CMQC.MQPMO_NO_SYNCPOINT;
        queue.put(sent, pmo);
        MQMessage received = new MQMessage();
        queue.get(received, new MQGetMessageOptions());
        byte[] back = new byte[received.getDataLength()];
        received.readFully(back);
        require(Arrays.equals(data, back), "1 MiB body intact");
        queue.close();
        qmgr.disconnect();
    }

    private void reasons() throws Exception {
        MQQueueManager qmgr = connect();
        equal(CMQC.MQRC_UNKNOWN_OBJECT_NAME,
                reasonOf(() -> qmgr.accessQueue("FERRITE.NO.SUCH.QUEUE", CMQC.MQOO_OUTPUT)),
                "open of an unknown queue");
        MQQueue queue = qmgr.accessQueue(queueName, CMQC.MQOO_INPUT_SHARED);
        equal(CMQC.MQRC_NO_MSG_AVAILABLE,
                reasonOf(() -> queue.get(new MQMessage(), new MQGetMessageOptions())),
                "get from an empty queue");
        MQGetMessageOptions wait = new MQGetMessageOptions();
        wait.options = CMQC.MQGMO_WAIT;
        wait.waitInterval = 200;
        equal(CMQC.MQRC_NO_MSG_AVAILABLE, reasonOf(() -> queue.get(new MQMessage(), wait)),
                "a wait that expires");
        queue.close();
        qmgr.disconnect();
    }

    private void priorities() throws Exception {
        MQQueueManager qmgr = connect();
        MQQueue queue = qmgr.accessQueue(queueName, CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED);
        int[] order = {0, 5, 9, 5, 0};
        for (int i = 0; i < order.length; i++) {
            MQMessage message = text("p" + order[i] + "-" + i, CMQC.MQPER_NOT_PERSISTENT);
            message.priority = order[i];
            queue.put(message);
        }
        String[] expected = {"p9-2", "p5-1", "p5-3", "p0-0", "p0-4"};
        for (String want : expected) {
            MQMessage got = new MQMessage();
            queue.get(got);
            equal(want, body(got), "priority then FIFO");
        }
        queue.close();
        qmgr.disconnect();
    }
}
