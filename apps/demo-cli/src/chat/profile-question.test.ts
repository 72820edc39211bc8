import { describe, expect, it } from 'vitest';
import { isAboutTheUser } from './profile-question.js';

describe('isAboutTheUser', () => {
  it('is true for questions about the user in general', () => {
    for (const q of [
      'What do you remember about me?',
      'what do you know about me',
      'Who am I?',
      'Tell me everything you know about me.',
      'What have you stored about me?',
      'Do you remember anything about me?',
    ]) {
      expect(isAboutTheUser(q), q).toBe(true);
    }
  });

  it('is false for a question with a subject, a statement, or small talk', () => {
    for (const q of [
      'Where do I live?',
      'Do you remember my dog?',
      'I remember the trip.',
      'hello',
      'ok',
      'What is the capital of France?',
      'What do you know about sourdough?',
      'Am I late?',
      'Can I?',
    ]) {
      expect(isAboutTheUser(q), q).toBe(false);
    }
  });
});
