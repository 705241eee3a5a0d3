import { highlightSegments } from './highlight.js';

describe('highlightSegments', () => {
  it('marks the words the tokens cover, whatever their case and accents', () => {
    expect(highlightSegments('KIM, Jong Un', ['kim', 'un'])).toEqual([
      { text: 'KIM', matched: true },
      { text: ', Jong ', matched: false },
      { text: 'Un', matched: true },
    ]);
    expect(highlightSegments('José Ñúñez', ['jose'])).toEqual([
      { text: 'José', matched: true },
      { text: ' Ñúñez', matched: false },
    ]);
  });

  it('joins neighbouring matched words into one mark', () => {
    expect(highlightSegments('Jong Un Kim Sr', ['jong un', 'kim'])).toEqual([
      { text: 'Jong Un Kim', matched: true },
      { text: ' Sr', matched: false },
    ]);
  });

  it('leaves text without matches whole', () => {
    expect(highlightSegments('Nobody', [])).toEqual([{ text: 'Nobody', matched: false }]);
    expect(highlightSegments('', ['a'])).toEqual([]);
  });
});
