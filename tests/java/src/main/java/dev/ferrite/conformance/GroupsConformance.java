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
 * Message groups and segmentation through IBM MQ classes for Java, unmodified, over a SVRCONN
 * channel: the MQPMO/MQGMO group options and the MQMD and MQGMO group fields travel over the
 * client protocol and the queue manager does the work. Arguments: queue manager name, host,
 * port, channel, queue, small queue (MAXMSGL below the segmented message's length). Each check
 * leaves the queues empty.
 */
public final class GroupsConformance {
    private final String qmgrName;
    private final Hashtable<String, Object> properties = new Hashtable<>();
    private final String queueName;
    private final String smallQueueName;

    private GroupsConformance(String[] args) {
        qmgrName = args[0];
        properties.put(CMQC.HOST_NAME_PROPERTY, args[1]);
        properties.put(CMQC.PORT_PROPERTY, Integer.parseInt(args[2]));
        properties.put(CMQC.CHANNEL_PROPERTY, args[3]);
        properties.put(CMQC.TRANSPORT_PROPERTY, CMQC.TRANSPORT_MQSERIES_CLIENT);
        queueName = args[4];
        smallQueueName = args[5];
    }

    public static void main(String[] args) throws Exception {
        System.exit(new GroupsConformance(args).run());
    }

    private MQQueueManager connect() throws MQException {
        return new MQQueueManager(qmgrName, properties);
    }

    private static MQMessage text(String body, int flags) throws Exception {
        MQMessage message = new MQMessage();
        message.format = CMQC.MQFMT_STRING;
        message.messageFlags = flags;
        message.writeString(body);
        return message;
    }

    private static String body(MQMessage message) throws Exception {
        return message.readStringOfByteLength(message.getDataLength());
    }

    private int run() {
        Checks checks = new Checks();
        checks.check("a group put in logical order is got in logical order when all of it is there",
                this::groupInLogicalOrder);
        checks.check("a message longer than MAXMSGL is segmented and reassembled", this::segmentation);
        return checks.finish();
    }

    private void groupInLogicalOrder() throws Exception {
        MQQueueManager qmgr = connect();
        MQQueue queue = qmgr.accessQueue(queueName,
                CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_FAIL_IF_QUIESCING);
        MQPutMessageOptions pmo = new MQPutMessageOptions();
        pmo.options = CMQC.MQPMO_LOGICAL_ORDER | CMQC.MQPMO_SYNCPOINT;
        byte[] groupId = null;
        for (int sequence = 1; sequence <= 3; sequence++) {
            int flags = sequence == 3 ? CMQC.MQMF_LAST_MSG_IN_GROUP : CMQC.MQMF_MSG_IN_GROUP;
            MQMessage message = text("member " + sequence, flags);
            queue.put(message, pmo);
            equal(sequence, message.messageSequenceNumber, "MsgSeqNumber assigned at put");
            if (groupId == null) {
                groupId = message.groupId.clone();
                require(!Arrays.equals(groupId, CMQC.MQGI_NONE), "a GroupId assigned at put");
            } else {
                require(Arrays.equals(groupId, message.groupId), "one GroupId for the group");
            }
        }
        // Before the commit, the group is not all available.
        MQGetMessageOptions gmo = new MQGetMessageOptions();
        gmo.options = CMQC.MQGMO_LOGICAL_ORDER | CMQC.MQGMO_ALL_MSGS_AVAILABLE | CMQC.MQGMO_SYNCPOINT
                | CMQC.MQGMO_NO_WAIT;
        gmo.matchOptions = CMQC.MQMO_NONE;
        MQQueueManager other = connect();
        MQQueue otherQueue = other.accessQueue(queueName, CMQC.MQOO_INPUT_SHARED);
        try {
            otherQueue.get(new MQMessage(), gmo);
            throw new AssertionError("an uncommitted group was got");
        } catch (MQException expected) {
            equal(CMQC.MQRC_NO_MSG_AVAILABLE, expected.reasonCode, "reason before the commit");
        }
        qmgr.commit();
        for (int sequence = 1; sequence <= 3; sequence++) {
            MQMessage got = new MQMessage();
            gmo = new MQGetMessageOptions();
            gmo.options = CMQC.MQGMO_LOGICAL_ORDER | CMQC.MQGMO_ALL_MSGS_AVAILABLE
                    | CMQC.MQGMO_SYNCPOINT | CMQC.MQGMO_WAIT;
            gmo.waitInterval = 5_000;
            gmo.matchOptions = CMQC.MQMO_NONE;
            otherQueue.get(got, gmo);
            equal("member " + sequence, body(got), "body in logical order");
            equal(sequence, got.messageSequenceNumber, "MsgSeqNumber");
            require(Arrays.equals(groupId, got.groupId), "GroupId of the group");
            char expected = sequence == 3 ? CMQC.MQGS_LAST_MSG_IN_GROUP : CMQC.MQGS_MSG_IN_GROUP;
            equal(expected, gmo.groupStatus, "GroupStatus");
        }
        other.commit();
        otherQueue.close();
        other.disconnect();
        queue.close();
        qmgr.disconnect();
    }

    private void segmentation() throws Exception {
        MQQueueManager qmgr = connect();
        MQQueue queue = qmgr.accessQueue(smallQueueName,
                CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_INQUIRE);
        int maximum = queue.getMaximumMessageLength();
        StringBuilder text = new StringBuilder();
        while (text.length() < maximum * 2 + maximum / 2) {
            text.append("segmented message ").append(text.length()).append(' ');
        }
        String original = text.toString();
        MQPutMessageOptions pmo = new MQPutMessageOptions();
        pmo.options = CMQC.MQPMO_NO_SYNCPOINT;
        queue.put(text(original, CMQC.MQMF_SEGMENTATION_ALLOWED), pmo);
        equal(3, queue.getCurrentDepth(), "segments on the queue");
        MQGetMessageOptions gmo = new MQGetMessageOptions();
        gmo.options = CMQC.MQGMO_COMPLETE_MSG | CMQC.MQGMO_NO_SYNCPOINT | CMQC.MQGMO_NO_WAIT;
        gmo.matchOptions = CMQC.MQMO_NONE;
        MQMessage got = new MQMessage();
        queue.get(got, gmo);
        equal(original, body(got), "the reassembled message");
        equal(0, got.offset, "Offset of the reassembled message");
        equal(CMQC.MQSS_LAST_SEGMENT, gmo.segmentStatus, "SegmentStatus");
        equal(0, queue.getCurrentDepth(), "every segment got");
        queue.close();
        qmgr.disconnect();
    }
}
